-- Access that expires (docs/access.md "Expiry"): a grant may carry expires_at; expiry_id names the
-- durable timer (workflow grantExpiry, business key grant-expiry-<expiry_id>) that revokes it, so a
-- renewed grant (a new expiry_id) is never revoked by an older timer.
ALTER TABLE "capability_grants" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "capability_grants" ADD COLUMN "expiry_id" uuid;--> statement-breakpoint
ALTER TABLE "capability_grants" ADD CONSTRAINT "capability_grants_expiry_ck" CHECK (("expires_at" is null) = ("expiry_id" is null));--> statement-breakpoint
-- A request may ask for a grant of a limited duration; a PENDING request older than
-- access.request-ttl-days becomes EXPIRED (which frees the one-open-request index).
ALTER TABLE "access_requests" ADD COLUMN "requested_duration_days" integer;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_duration_ck" CHECK ("requested_duration_days" is null or "requested_duration_days" between 1 and 3650);--> statement-breakpoint
CREATE INDEX "access_requests_pending_created_idx" ON "access_requests" USING btree ("created_at") WHERE status = 'PENDING';
