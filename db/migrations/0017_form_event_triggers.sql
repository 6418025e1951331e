-- The forms event rail: every lifecycle change of a form instance (its creation, and every UPDATE
-- that changes `state`) writes a QUEUED form_event_outbox row in the transaction of the change,
-- whatever code path made it, and wakes the correlators at commit (NOTIFY is transactional).
-- The payload carries the instance's identity and states only (docs/forms.md "Event rail").
CREATE FUNCTION form_instance_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO form_event_outbox (tenant_id, event_type, form_code, instance_id, payload_json)
  VALUES (
    NEW.tenant_id,
    lower(NEW.state),
    NEW.definition_code,
    NEW.id,
    jsonb_build_object(
      'instanceId', NEW.id,
      'formCode', NEW.definition_code,
      'definitionVersion', NEW.definition_version,
      'state', NEW.state,
      'previousState', CASE WHEN TG_OP = 'UPDATE' THEN OLD.state END,
      'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    )
  );
  PERFORM pg_notify('form_event_ready', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER form_instances_created_event AFTER INSERT ON form_instances
  FOR EACH ROW EXECUTE FUNCTION form_instance_event();
--> statement-breakpoint
CREATE TRIGGER form_instances_state_event AFTER UPDATE OF state ON form_instances
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION form_instance_event();
