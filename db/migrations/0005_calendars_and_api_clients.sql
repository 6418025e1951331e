CREATE TABLE "business_calendars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"calendar_code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"active" boolean DEFAULT true NOT NULL,
	"business_day_minutes" integer DEFAULT 480 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_calendars_day_minutes_ck" CHECK ("business_calendars"."business_day_minutes" between 1 and 1440)
);
--> statement-breakpoint
CREATE TABLE "business_hours" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"location_id" uuid NOT NULL,
	"day_of_week" integer NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"label" text,
	"partial" boolean DEFAULT false NOT NULL,
	"capacity_percent" integer,
	"partial_reason" text,
	"active" boolean DEFAULT true NOT NULL,
	"effective_from" date,
	"effective_until" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_hours_day_ck" CHECK ("business_hours"."day_of_week" between 1 and 7)
);
--> statement-breakpoint
CREATE TABLE "calendar_locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"calendar_id" uuid NOT NULL,
	"location_code" text NOT NULL,
	"name" text NOT NULL,
	"timezone" text NOT NULL,
	"country" text,
	"region" text,
	"city" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holidays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"location_id" uuid NOT NULL,
	"date" date NOT NULL,
	"name" text NOT NULL,
	"type" text,
	"open_from" text,
	"open_until" text,
	"closed" boolean DEFAULT true NOT NULL,
	"description" text,
	"recurring" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "process_calendar_associations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"process_definition_key" text NOT NULL,
	"calendar_id" uuid NOT NULL,
	"sla_business_days" integer DEFAULT 0 NOT NULL,
	"sla_business_minutes" integer DEFAULT 0 NOT NULL,
	"priority" text DEFAULT 'MEDIUM' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "process_calendar_budget_ck" CHECK ("process_calendar_associations"."sla_business_days" >= 0 and "process_calendar_associations"."sla_business_minutes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "api_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_by" text,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "business_calendars" ADD CONSTRAINT "business_calendars_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_hours" ADD CONSTRAINT "business_hours_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_hours" ADD CONSTRAINT "business_hours_location_id_calendar_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."calendar_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_locations" ADD CONSTRAINT "calendar_locations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_locations" ADD CONSTRAINT "calendar_locations_calendar_id_business_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."business_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_location_id_calendar_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."calendar_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_calendar_associations" ADD CONSTRAINT "process_calendar_associations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_calendar_associations" ADD CONSTRAINT "process_calendar_associations_calendar_id_business_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."business_calendars"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "business_calendars_code_idx" ON "business_calendars" USING btree ("tenant_id","calendar_code");--> statement-breakpoint
CREATE INDEX "business_hours_location_idx" ON "business_hours" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_locations_code_idx" ON "calendar_locations" USING btree ("calendar_id","location_code");--> statement-breakpoint
CREATE INDEX "calendar_locations_tenant_idx" ON "calendar_locations" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "holidays_location_date_idx" ON "holidays" USING btree ("location_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "process_calendar_key_idx" ON "process_calendar_associations" USING btree ("tenant_id","process_definition_key");--> statement-breakpoint
CREATE INDEX "process_calendar_calendar_idx" ON "process_calendar_associations" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "api_clients_tenant_idx" ON "api_clients" USING btree ("tenant_id","created_at");