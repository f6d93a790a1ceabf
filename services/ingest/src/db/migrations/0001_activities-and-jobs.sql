CREATE TABLE "ingest"."activities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"team_id" text NOT NULL,
	"representative_email" text NOT NULL,
	"representative_name" text NOT NULL,
	"file_name" text NOT NULL,
	"title" text NOT NULL,
	"notes" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"media_kind" text NOT NULL,
	"media_format" text NOT NULL,
	"media_key" text NOT NULL,
	"media_bytes" bigint NOT NULL,
	"media_sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest"."jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"activity_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text NOT NULL,
	"failed_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ingest"."jobs" ADD CONSTRAINT "jobs_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "ingest"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_company_idx" ON "ingest"."activities" USING btree ("company_id","occurred_at");--> statement-breakpoint
CREATE INDEX "jobs_activity_idx" ON "ingest"."jobs" USING btree ("activity_id");