CREATE TABLE "integration"."integration_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"integration_name" text NOT NULL,
	"details" text NOT NULL,
	"requested_by" jsonb NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"emailed_at" timestamp with time zone
);
