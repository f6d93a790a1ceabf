CREATE TABLE "integration"."imports" (
	"company_id" uuid NOT NULL,
	"integration_id" text NOT NULL,
	"external_id" text NOT NULL,
	"activity_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"lead_id" text DEFAULT '' NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imports_company_id_integration_id_external_id_pk" PRIMARY KEY("company_id","integration_id","external_id")
);
--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "connected_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "sync_cursor" text;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "sync_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "sync_claim_token" uuid;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "sync_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "last_sync_summary" jsonb;--> statement-breakpoint
CREATE INDEX "imports_activity_idx" ON "integration"."imports" USING btree ("activity_id");