-- The dashboard's rollups gained quarter cells (span 'q'). A zone built before has none: unlist
-- every zone and drop its cells, so each is rebuilt from the activities the next time it is asked
-- for; until then it is answered from the rows.
DELETE FROM "analytics"."dashboard_zones";--> statement-breakpoint
TRUNCATE "analytics"."dashboard_totals", "analytics"."dashboard_verdicts";--> statement-breakpoint
-- A period's first day is shared by its day, month and quarter cells, so how many cells a span
-- and period select is not the product of each alone: without these the planner guesses a
-- quarter's cells a hundred times too few and reads them through the wrong index.
CREATE STATISTICS IF NOT EXISTS "analytics"."dashboard_totals_span_period" (mcv) ON "span", "period" FROM "analytics"."dashboard_totals";--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "analytics"."dashboard_verdicts_span_period" (mcv) ON "span", "period" FROM "analytics"."dashboard_verdicts";
