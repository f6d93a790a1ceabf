CREATE TABLE "analytics"."dashboard_totals_staged" (
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
	CONSTRAINT "dashboard_totals_staged_pk" PRIMARY KEY("zone","company_id","kind","span","team_id","representative_email","period")
);
--> statement-breakpoint
CREATE TABLE "analytics"."dashboard_verdicts_staged" (
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
	CONSTRAINT "dashboard_verdicts_staged_pk" PRIMARY KEY("zone","company_id","kind","span","team_id","representative_email","period","group_id","criterion_id")
);
