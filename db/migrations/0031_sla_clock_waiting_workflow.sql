-- SLA clocks a workflow waits on (docs/calendars.md "Waiting on a clock from a workflow"): the
-- `startSlaClock` activity records the calling workflow, and each warning, breach or met the clock
-- records is an outbox signal `SlaClockEvent` to it, written in the same transaction
-- (services/calendars/sla-clocks.ts). A tenant's request never sets either column. `start_key`
-- makes a retried activity find the clock its first attempt started.
ALTER TABLE "sla_clocks" ADD COLUMN "waiting_workflow_id" text;--> statement-breakpoint
ALTER TABLE "sla_clocks" ADD COLUMN "start_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "sla_clocks_start_key_idx" ON "sla_clocks" USING btree ("tenant_id","start_key");
