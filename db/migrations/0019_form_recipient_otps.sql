CREATE TABLE "form_recipient_otps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"code_hash" text,
	"code_salt" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"access_token_hash" text,
	"access_expires_at" timestamp with time zone,
	CONSTRAINT "form_recipient_otps_instance_idx" UNIQUE("instance_id")
);
--> statement-breakpoint
ALTER TABLE "form_recipient_otps" ADD CONSTRAINT "form_recipient_otps_instance_id_form_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."form_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_instances_expiry_idx" ON "form_instances" USING btree ("expires_at") WHERE "form_instances"."state" in ('DRAFT', 'SENT', 'OPENED') and "form_instances"."expires_at" is not null;