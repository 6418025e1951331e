DROP INDEX "outbox_business_key_idx";--> statement-breakpoint
DROP INDEX "outbox_workflow_id_idx";--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "workflow_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "verb" text DEFAULT 'start' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "signal_name" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "signal_args" jsonb;--> statement-breakpoint
CREATE INDEX "outbox_workflow_queued_idx" ON "outbox" USING btree ("workflow_id","seq") WHERE "outbox"."state" = 'QUEUED';--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_business_key_idx" ON "outbox" USING btree ("capability","tenant_id","business_key") WHERE "outbox"."verb" = 'start';--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_workflow_id_idx" ON "outbox" USING btree ("workflow_id") WHERE "outbox"."verb" = 'start';--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_verb_fields" CHECK (("outbox"."verb" = 'signal' or "outbox"."workflow_type" is not null) and ("outbox"."verb" = 'start' or "outbox"."signal_name" is not null));