CREATE TABLE "embed_sessions" (
	"tenant_id" text NOT NULL,
	"process_ref" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"attachments" integer DEFAULT 0 NOT NULL,
	"linked_instance_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embed_sessions_tenant_id_process_ref_pk" PRIMARY KEY("tenant_id","process_ref")
);
--> statement-breakpoint
ALTER TABLE "embed_sessions" ADD CONSTRAINT "embed_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;