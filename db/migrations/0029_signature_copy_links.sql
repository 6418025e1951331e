CREATE TABLE "signature_copy_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"party" text NOT NULL,
	"signer_id" text,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"delivery_status" text,
	"delivery_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signature_copy_links_party_check" CHECK ("party" IN ('signer', 'sender') AND ("party" = 'sender') = ("signer_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "signature_copy_links" ADD CONSTRAINT "signature_copy_links_instance_id_signature_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."signature_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signature_copy_links_token_idx" ON "signature_copy_links" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_copy_links_holder_idx" ON "signature_copy_links" USING btree ("instance_id", coalesce("signer_id", ''));
