CREATE TABLE "form_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"token" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"definition_code" text NOT NULL,
	"definition_version" integer NOT NULL,
	"state" text NOT NULL,
	"prefill" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recipient" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"origin" text NOT NULL,
	"created_by" text,
	"expires_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "form_instances" ADD CONSTRAINT "form_instances_definition_id_form_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."form_definitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_instances_token_idx" ON "form_instances" USING btree ("token");--> statement-breakpoint
CREATE INDEX "form_instances_list_idx" ON "form_instances" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "form_instances_code_idx" ON "form_instances" USING btree ("tenant_id","definition_code","created_at");