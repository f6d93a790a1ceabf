CREATE TABLE "integration"."oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"integration_id" text NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"binding_hash" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration"."writeback_work" (
	"write_key" text PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"activity_id" uuid NOT NULL,
	"request" jsonb NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"company_id" uuid NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "last_writeback_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "writeback_error" text;--> statement-breakpoint
ALTER TABLE "integration"."connections" ADD COLUMN "writeback_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integration"."imports" ADD COLUMN "vendor_refs" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "integration"."writeback_work" ADD CONSTRAINT "writeback_work_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "integration"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "writeback_work_created_idx" ON "integration"."writeback_work" USING btree ("created_at");