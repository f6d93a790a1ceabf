ALTER TABLE "analytics"."activities" ADD COLUMN "criteria_needing_review" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics"."activity_day_counts" ADD COLUMN "needing_review" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics"."activity_day_verdicts" ADD COLUMN "needing_review" integer DEFAULT 0 NOT NULL;