ALTER TABLE "integration"."connections" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD CONSTRAINT "connections_id_unique" UNIQUE("id");--> statement-breakpoint
CREATE TABLE "integration"."sync_work" (
	"connection_id" uuid PRIMARY KEY NOT NULL,
	"integration_id" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"company_id" uuid NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration"."sync_work" ADD CONSTRAINT "sync_work_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "integration"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_work_created_idx" ON "integration"."sync_work" USING btree ("created_at");--> statement-breakpoint
-- The automatic syncs already scheduled carry over, due when they were.
INSERT INTO "integration"."sync_work" ("connection_id", "company_id", "integration_id", "due_at")
	SELECT "id", "company_id", "integration_id", coalesce("sync_due_at", now()) FROM "integration"."connections"
	WHERE "status" = 'connected' AND ("settings" ->> 'autoSync') = 'true';--> statement-breakpoint
ALTER TABLE "integration"."connections" DROP COLUMN "sync_due_at";--> statement-breakpoint
ALTER TABLE "integration"."connections" DROP COLUMN "sync_claim_token";--> statement-breakpoint
ALTER TABLE "integration"."connections" DROP COLUMN "sync_claimed_until";
