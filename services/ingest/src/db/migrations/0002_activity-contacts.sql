ALTER TABLE "ingest"."activities" ADD COLUMN "contact_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest"."activities" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest"."activities" ADD COLUMN "contact_company" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest"."activities" ADD COLUMN "contact_role" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest"."activities" ADD COLUMN "link" text DEFAULT '' NOT NULL;