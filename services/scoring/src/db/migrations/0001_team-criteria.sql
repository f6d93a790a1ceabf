CREATE TABLE "scoring"."team_criteria" (
	"company_id" uuid NOT NULL,
	"team_id" text NOT NULL,
	"version" bigint NOT NULL,
	"name" text NOT NULL,
	"department" text NOT NULL,
	"criteria_groups" jsonb NOT NULL,
	"success_prompt" text NOT NULL,
	"call_script" text NOT NULL,
	"deleted_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_criteria_company_id_team_id_pk" PRIMARY KEY("company_id","team_id")
);
