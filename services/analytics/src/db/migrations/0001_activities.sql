CREATE TABLE "analytics"."activities" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"received_at" timestamp with time zone,
	"kind" text,
	"team_id" text DEFAULT '' NOT NULL,
	"occurred_at" timestamp with time zone,
	"representative_email" text DEFAULT '' NOT NULL,
	"representative_name" text DEFAULT '' NOT NULL,
	"contact_id" text DEFAULT '' NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_company" text DEFAULT '' NOT NULL,
	"contact_role" text DEFAULT '' NOT NULL,
	"link" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"media" text,
	"transcribed_at" timestamp with time zone,
	"transcript_duration_seconds" integer DEFAULT 0 NOT NULL,
	"transcript" text DEFAULT '' NOT NULL,
	"evaluated_at" timestamp with time zone,
	"score" double precision,
	"script_match" double precision,
	"is_successful" boolean,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"passed_criteria" text[] DEFAULT '{}' NOT NULL,
	"failed_criteria" text[] DEFAULT '{}' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"improvements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"evaluation_duration_seconds" integer DEFAULT 0 NOT NULL,
	"failed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"duration_seconds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activities_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "analytics"."teams" (
	"company_id" uuid NOT NULL,
	"team_id" text NOT NULL,
	"name" text NOT NULL,
	"department" text NOT NULL,
	"deleted" boolean NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "teams_company_id_team_id_pk" PRIMARY KEY("company_id","team_id")
);
--> statement-breakpoint
CREATE INDEX "activities_team_list_idx" ON "analytics"."activities" USING btree ("company_id","kind","team_id","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "activities_list_idx" ON "analytics"."activities" USING btree ("company_id","kind","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "activities_count_idx" ON "analytics"."activities" USING btree ("company_id","kind","team_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "activities_passed_criteria_idx" ON "analytics"."activities" USING gin ("passed_criteria");--> statement-breakpoint
CREATE INDEX "activities_failed_criteria_idx" ON "analytics"."activities" USING gin ("failed_criteria");--> statement-breakpoint
CREATE INDEX "activities_contact_idx" ON "analytics"."activities" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE INDEX "activities_representative_idx" ON "analytics"."activities" USING btree ("company_id","representative_email");--> statement-breakpoint
CREATE INDEX "activities_tombstones_idx" ON "analytics"."activities" USING btree ("deleted_at") WHERE deleted_at is not null;