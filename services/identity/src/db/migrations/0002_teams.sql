CREATE TABLE "identity"."criteria" (
	"company_id" uuid NOT NULL,
	"team_id" text NOT NULL,
	"group_id" text NOT NULL,
	"id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"prompt" text NOT NULL,
	"weight" double precision NOT NULL,
	CONSTRAINT "criteria_company_id_team_id_id_pk" PRIMARY KEY("company_id","team_id","id"),
	CONSTRAINT "criteria_weight_check" CHECK ("identity"."criteria"."weight" >= 0 and "identity"."criteria"."weight" <= 10)
);
--> statement-breakpoint
CREATE TABLE "identity"."criteria_groups" (
	"company_id" uuid NOT NULL,
	"team_id" text NOT NULL,
	"id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "criteria_groups_company_id_team_id_id_pk" PRIMARY KEY("company_id","team_id","id")
);
--> statement-breakpoint
CREATE TABLE "identity"."team_members" (
	"company_id" uuid NOT NULL,
	"team_id" text NOT NULL,
	"email" text NOT NULL,
	"position" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"crm_id" text NOT NULL,
	"target" integer NOT NULL,
	CONSTRAINT "team_members_company_id_team_id_email_pk" PRIMARY KEY("company_id","team_id","email"),
	CONSTRAINT "team_members_target_check" CHECK ("identity"."team_members"."target" >= 0)
);
--> statement-breakpoint
CREATE TABLE "identity"."teams" (
	"company_id" uuid NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"department" text NOT NULL,
	"success_prompt" text NOT NULL,
	"call_script" text NOT NULL,
	"crm_id" text NOT NULL,
	"version" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "teams_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "identity"."criteria" ADD CONSTRAINT "criteria_group_fk" FOREIGN KEY ("company_id","team_id","group_id") REFERENCES "identity"."criteria_groups"("company_id","team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."criteria_groups" ADD CONSTRAINT "criteria_groups_team_fk" FOREIGN KEY ("company_id","team_id") REFERENCES "identity"."teams"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."team_members" ADD CONSTRAINT "team_members_team_fk" FOREIGN KEY ("company_id","team_id") REFERENCES "identity"."teams"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."teams" ADD CONSTRAINT "teams_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "identity"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "teams_company_department_idx" ON "identity"."teams" USING btree ("company_id","department");