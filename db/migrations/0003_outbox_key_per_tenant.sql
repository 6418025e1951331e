CREATE TABLE "phone_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"direction" text NOT NULL,
	"status" text NOT NULL,
	"provider_call_id" text,
	"phone_number_id" text,
	"assistant_id" text,
	"customer_number" text,
	"customer_name" text,
	"ended_reason" text,
	"transcript" text,
	"recording_url" text,
	"summary" text,
	"cost" double precision,
	"analysis" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"variable_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error_message" text,
	"end_payload" jsonb,
	"end_source" text,
	"business_key" text NOT NULL,
	"process_instance_id" text,
	"process_status" text DEFAULT 'PENDING' NOT NULL,
	"initiated_by" text NOT NULL,
	"placement_key" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "phone_calls_business_key_is_id" CHECK ("phone_calls"."business_key" = "phone_calls"."id"::text)
);
--> statement-breakpoint
CREATE TABLE "phone_numbers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"provider_number_id" text NOT NULL,
	"number" text,
	"provider" text NOT NULL,
	"name" text,
	"assistant_id" text,
	"provider_status" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_settings" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"default_assistant_id" text,
	"default_phone_number_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "outbox_business_key_idx";--> statement-breakpoint
ALTER TABLE "phone_calls" ADD CONSTRAINT "phone_calls_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_settings" ADD CONSTRAINT "phone_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_calls_provider_call_id_idx" ON "phone_calls" USING btree ("provider_call_id");--> statement-breakpoint
CREATE UNIQUE INDEX "phone_calls_placement_key_idx" ON "phone_calls" USING btree ("tenant_id","placement_key");--> statement-breakpoint
CREATE INDEX "phone_calls_tenant_created_idx" ON "phone_calls" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_provider_number_id_idx" ON "phone_numbers" USING btree ("provider_number_id");--> statement-breakpoint
CREATE INDEX "phone_numbers_tenant_idx" ON "phone_numbers" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "phone_numbers_number_idx" ON "phone_numbers" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_business_key_idx" ON "outbox" USING btree ("capability","tenant_id","business_key");