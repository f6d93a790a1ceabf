CREATE TABLE "analytics"."dashboard_totals" (
	"company_id" uuid NOT NULL,
	"zone" text NOT NULL,
	"kind" text NOT NULL,
	"span" text NOT NULL,
	"team_id" text NOT NULL,
	"representative_email" text NOT NULL,
	"period" date NOT NULL,
	"activities" integer NOT NULL,
	"successful" integer NOT NULL,
	"unsuccessful" integer NOT NULL,
	"scored" integer NOT NULL,
	"score_sum" numeric NOT NULL,
	"script_matched" integer NOT NULL,
	"script_match_sum" numeric NOT NULL,
	"timed" integer NOT NULL,
	"duration_sum" bigint NOT NULL,
	CONSTRAINT "dashboard_totals_pk" PRIMARY KEY("company_id","zone","kind","span","team_id","representative_email","period")
);
--> statement-breakpoint
CREATE TABLE "analytics"."dashboard_verdicts" (
	"company_id" uuid NOT NULL,
	"zone" text NOT NULL,
	"kind" text NOT NULL,
	"span" text NOT NULL,
	"team_id" text NOT NULL,
	"representative_email" text NOT NULL,
	"period" date NOT NULL,
	"group_id" text NOT NULL,
	"criterion_id" text NOT NULL,
	"passed" integer NOT NULL,
	"failed" integer NOT NULL,
	"passed_successful" integer NOT NULL,
	"failed_successful" integer NOT NULL,
	"passed_unsuccessful" integer NOT NULL,
	"failed_unsuccessful" integer NOT NULL,
	CONSTRAINT "dashboard_verdicts_pk" PRIMARY KEY("company_id","zone","kind","span","team_id","representative_email","period","group_id","criterion_id")
);
--> statement-breakpoint
CREATE TABLE "analytics"."dashboard_zones" (
	"zone" text PRIMARY KEY NOT NULL,
	"built_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics"."teams" ADD COLUMN "members" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics"."teams" ADD COLUMN "criteria" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "dashboard_totals_representative_idx" ON "analytics"."dashboard_totals" USING btree ("company_id","zone","kind","span","representative_email","period");--> statement-breakpoint
CREATE INDEX "dashboard_verdicts_representative_idx" ON "analytics"."dashboard_verdicts" USING btree ("company_id","zone","kind","span","representative_email","period");