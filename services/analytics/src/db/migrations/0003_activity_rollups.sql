CREATE TABLE "analytics"."activity_day_counts" (
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"success" smallint NOT NULL,
	"scored" boolean NOT NULL,
	"score_bucket" integer NOT NULL,
	"activities" integer NOT NULL,
	CONSTRAINT "activity_day_counts_pk" PRIMARY KEY("company_id","kind","team_id","day","success","scored","score_bucket")
);
--> statement-breakpoint
CREATE TABLE "analytics"."activity_day_verdicts" (
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"group_id" text NOT NULL,
	"criterion_id" text NOT NULL,
	"passed" boolean NOT NULL,
	"activities" integer NOT NULL,
	CONSTRAINT "activity_day_verdicts_pk" PRIMARY KEY("company_id","kind","team_id","group_id","criterion_id","passed","day")
);
--> statement-breakpoint
CREATE TABLE "analytics"."activity_rollups" (
	"built_at" timestamp with time zone PRIMARY KEY NOT NULL
);
