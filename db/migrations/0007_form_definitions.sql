CREATE TABLE "form_audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"action" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"draft_schema" jsonb NOT NULL,
	"published_version" integer,
	"locked_by" text,
	"locked_at" timestamp with time zone,
	"last_tested_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"kind" text NOT NULL,
	"submission_handling" text,
	"outbound_roles_json" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"allowed_embed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"embed_key_version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "form_definitions_status_check" CHECK ("form_definitions"."status" in ('DRAFT', 'PUBLISHED', 'RETIRED'))
);
--> statement-breakpoint
CREATE TABLE "form_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"schema" jsonb NOT NULL,
	"checked_in_by" text NOT NULL,
	"checked_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_off_at" timestamp with time zone,
	"signed_off_by" text,
	CONSTRAINT "form_versions_number_check" CHECK ("form_versions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "form_definitions" ADD CONSTRAINT "form_definitions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_definition_id_form_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."form_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_audit_events_definition_idx" ON "form_audit_events" USING btree ("definition_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "form_definitions_code_idx" ON "form_definitions" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE INDEX "form_definitions_tenant_created_idx" ON "form_definitions" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "form_versions_number_idx" ON "form_versions" USING btree ("definition_id","version");--> statement-breakpoint
-- Definition audit events are immutable like the access audit: refused at the database, not just in code.
-- One function for every capability's audit table (signatures reuse it).
CREATE OR REPLACE FUNCTION definition_audit_immutable() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER form_audit_events_immutable BEFORE UPDATE OR DELETE ON form_audit_events
  FOR EACH ROW EXECUTE FUNCTION definition_audit_immutable();
--> statement-breakpoint
-- A checked-in version never changes; its sign-off is recorded once. Deleting stays possible
-- (cascade of a tenant, a later hard purge).
CREATE OR REPLACE FUNCTION definition_version_immutable() RETURNS trigger AS $$
BEGIN
  IF NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id OR NEW.definition_id <> OLD.definition_id
     OR NEW.version <> OLD.version OR NEW.schema IS DISTINCT FROM OLD.schema
     OR NEW.checked_in_by <> OLD.checked_in_by OR NEW.checked_in_at <> OLD.checked_in_at
     OR (OLD.signed_off_at IS NOT NULL
         AND (NEW.signed_off_at IS DISTINCT FROM OLD.signed_off_at OR NEW.signed_off_by IS DISTINCT FROM OLD.signed_off_by)) THEN
    RAISE EXCEPTION '% rows are immutable once checked in; only a first sign-off is recorded', TG_TABLE_NAME;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER form_versions_immutable BEFORE UPDATE ON form_versions
  FOR EACH ROW EXECUTE FUNCTION definition_version_immutable();
