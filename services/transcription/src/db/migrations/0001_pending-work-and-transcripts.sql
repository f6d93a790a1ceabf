CREATE TABLE "transcription"."pending_work" (
	"activity_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"job_id" text NOT NULL,
	"request" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transcription"."transcripts" (
	"activity_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"job_id" text NOT NULL,
	"kind" text NOT NULL,
	"source_format" text NOT NULL,
	"engine" text NOT NULL,
	"duration_ms" bigint NOT NULL,
	"speakers" jsonb NOT NULL,
	"segments" jsonb NOT NULL,
	"warnings" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pending_work_created_idx" ON "transcription"."pending_work" USING btree ("created_at");