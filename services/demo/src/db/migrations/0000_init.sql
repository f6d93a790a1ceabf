CREATE SCHEMA "demo";
--> statement-breakpoint
CREATE TABLE "demo"."inbox" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbox_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "demo"."outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "demo"."outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"key" text NOT NULL,
	"payload" "bytea" NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "demo"."probes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_trace_id" text DEFAULT '' NOT NULL,
	"received_at" timestamp with time zone,
	"received_trace_id" text
);
--> statement-breakpoint
CREATE TABLE "demo"."seed_runs" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"plan" jsonb NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "inbox_applied_at_idx" ON "demo"."inbox" USING btree ("applied_at");--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "demo"."outbox" USING btree ("id") WHERE published_at is null;--> statement-breakpoint
CREATE INDEX "outbox_published_at_idx" ON "demo"."outbox" USING btree ("published_at");