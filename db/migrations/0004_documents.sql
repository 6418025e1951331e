CREATE TABLE "document_processes" (
	"tenant_id" text NOT NULL,
	"process_ref" text NOT NULL,
	"process_instance_id" text NOT NULL,
	"workflow_id" text,
	"started_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_processes_tenant_id_process_ref_pk" PRIMARY KEY("tenant_id","process_ref")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	"tenant_id" text NOT NULL,
	"process_ref" text NOT NULL,
	"process_instance_id" text,
	"task_id" text,
	"kind" text NOT NULL,
	"capability" text NOT NULL,
	"owner_entity_id" text,
	"storage_key" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint,
	"sha256" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"retain_until" timestamp with time zone,
	"retention_mode" text,
	"storage_version_id" text,
	"scan_status" text DEFAULT 'NOT_SCANNED' NOT NULL,
	"scan_signature" text,
	"scan_attempts" integer DEFAULT 0 NOT NULL,
	"scanned_at" timestamp with time zone,
	"created_by" text,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "document_processes" ADD CONSTRAINT "document_processes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_storage_key_idx" ON "documents" USING btree ("tenant_id","storage_key");--> statement-breakpoint
CREATE INDEX "documents_process_idx" ON "documents" USING btree ("tenant_id","process_ref","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_task_idx" ON "documents" USING btree ("tenant_id","task_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_owner_idx" ON "documents" USING btree ("tenant_id","capability","owner_entity_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_retention_idx" ON "documents" USING btree ("retain_until") WHERE "documents"."retain_until" is not null and "documents"."status" <> 'DELETED';