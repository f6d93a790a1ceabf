CREATE TABLE "integration"."connections" (
	"company_id" uuid NOT NULL,
	"integration_id" text NOT NULL,
	"status" text NOT NULL,
	"connected_by" jsonb NOT NULL,
	"connected_at" timestamp with time zone NOT NULL,
	"credentials" text NOT NULL,
	"settings" jsonb NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	CONSTRAINT "connections_company_id_integration_id_pk" PRIMARY KEY("company_id","integration_id")
);
