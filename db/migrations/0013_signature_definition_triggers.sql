-- Signature definitions reuse the definition lifecycle's trigger functions of 0007: audit events
-- are immutable (UPDATE and DELETE refused, a hard purge included), and a checked-in version
-- takes only its first sign-off.
CREATE TRIGGER signature_audit_events_immutable BEFORE UPDATE OR DELETE ON signature_audit_events
  FOR EACH ROW EXECUTE FUNCTION definition_audit_immutable();
--> statement-breakpoint
CREATE TRIGGER signature_versions_immutable BEFORE UPDATE ON signature_versions
  FOR EACH ROW EXECUTE FUNCTION definition_version_immutable();
