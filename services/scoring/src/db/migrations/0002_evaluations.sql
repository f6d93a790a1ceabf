CREATE TABLE "scoring"."deleted_activities" (
	"company_id" uuid NOT NULL,
	"activity_id" uuid NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deleted_activities_company_id_activity_id_pk" PRIMARY KEY("company_id","activity_id")
);
--> statement-breakpoint
CREATE TABLE "scoring"."evaluations" (
	"activity_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"team_id" text NOT NULL,
	"team_version" bigint NOT NULL,
	"job_id" text NOT NULL,
	"representative_email" text NOT NULL,
	"engine" text NOT NULL,
	"score" double precision NOT NULL,
	"script_match" double precision,
	"is_successful" boolean,
	"evaluation" jsonb NOT NULL,
	"insight_tokens" bigint NOT NULL,
	"evaluated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scoring"."pending_evaluations" (
	"activity_id" uuid PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"kind" text NOT NULL,
	"team_id" text NOT NULL,
	"representative_email" text NOT NULL,
	"representative_name" text NOT NULL,
	"transcript" jsonb NOT NULL,
	"team" jsonb,
	"company_id" uuid NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "deleted_activities_deleted_at_idx" ON "scoring"."deleted_activities" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "evaluations_company_team_idx" ON "scoring"."evaluations" USING btree ("company_id","team_id","evaluated_at");--> statement-breakpoint
CREATE INDEX "pending_evaluations_created_idx" ON "scoring"."pending_evaluations" USING btree ("created_at");