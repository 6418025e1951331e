-- The ceremony audit trail is immutable like the definitions' trails: 0007's function refuses
-- UPDATE and DELETE of signature_instance_events.
CREATE TRIGGER signature_instance_events_immutable BEFORE UPDATE OR DELETE ON signature_instance_events
  FOR EACH ROW EXECUTE FUNCTION definition_audit_immutable();
