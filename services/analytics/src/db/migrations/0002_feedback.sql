CREATE TABLE "analytics"."feedback" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"activity_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"activity_name" text NOT NULL,
	"description" text NOT NULL,
	"reporter_email" text NOT NULL,
	"reporter_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "feedback_company_idx" ON "analytics"."feedback" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);