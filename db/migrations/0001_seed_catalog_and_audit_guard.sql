-- Access audit rows are immutable: refuse UPDATE and DELETE at the database, not just in code.
CREATE OR REPLACE FUNCTION access_audit_immutable() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'access_audit rows are immutable';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER access_audit_no_update BEFORE UPDATE OR DELETE ON access_audit
  FOR EACH ROW EXECUTE FUNCTION access_audit_immutable();
--> statement-breakpoint
INSERT INTO capabilities (code, name, route, icon, status, tier) VALUES
  ('CALENDAR', 'Business Calendars', '/calendars', 'calendar', 'ACTIVE', 'STANDARD'),
  ('SLA', 'SLA Management', '/sla', 'timer', 'ACTIVE', 'PREMIUM'),
  ('PHONE', 'Phone / Voice', '/phone', 'phone', 'ACTIVE', 'STANDARD'),
  ('FORMS', 'Forms', '/forms', 'clipboard', 'ACTIVE', 'STANDARD'),
  ('SIGNATURES', 'E-Signatures', '/signatures', 'pen', 'ACTIVE', 'PREMIUM'),
  ('EMAIL', 'E-mail', '/email', 'mail', 'BETA', 'STANDARD')
ON CONFLICT (code) DO NOTHING;
--> statement-breakpoint
-- The global tenant-admin role group answers for every organisation, so it never decides (rule 6).
INSERT INTO groups (id, type, tenant_id, name, description) VALUES
  ('tenant-admin', 'ROLE', NULL, 'Tenant administrators (global)', 'Global role group; never sufficient to decide approvals')
ON CONFLICT (id) DO NOTHING;
