DROP INDEX "phone_numbers_provider_number_id_idx";--> statement-breakpoint
ALTER TABLE "phone_numbers" ALTER COLUMN "provider_number_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "registration" text DEFAULT 'REGISTERED' NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "registration_error" text;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_provider_number_id_idx" ON "phone_numbers" USING btree ("provider_number_id") WHERE "phone_numbers"."registration" = 'REGISTERED';