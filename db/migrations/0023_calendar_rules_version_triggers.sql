-- The calendar rules version (docs/calendars.md "Compiled calendar cache"): every change to what
-- the SLA engine reads of a calendar raises business_calendars.rules_version in the transaction of
-- the change, whatever code path made it. A node keeps a compiled calendar per (tenant, calendar)
-- with the version it was compiled at, reads the current version on every request and recompiles
-- when they differ, so a change made through one node is seen by every node's next request.
--
-- The calendar row: a change of its code, active or business_day_minutes (its name, description
-- and stamps are not engine input).
CREATE FUNCTION business_calendar_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.rules_version := greatest(NEW.rules_version, OLD.rules_version + 1);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER business_calendars_rules_version BEFORE UPDATE ON business_calendars
  FOR EACH ROW
  WHEN ((OLD.calendar_code, OLD.active, OLD.business_day_minutes) IS DISTINCT FROM (NEW.calendar_code, NEW.active, NEW.business_day_minutes))
  EXECUTE FUNCTION business_calendar_rules_changed();
--> statement-breakpoint
-- Locations (enabled, time zone, sort order, code; any change of a row, to stay simple and safe:
-- a needless bump costs one recompile). Statement-level with transition tables, so a statement
-- that writes many rows raises each calendar it touches once. A location moved to another
-- calendar raises both.
CREATE FUNCTION calendar_locations_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE business_calendars SET rules_version = rules_version + 1
      WHERE id IN (SELECT calendar_id FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE business_calendars SET rules_version = rules_version + 1
      WHERE id IN (SELECT calendar_id FROM new_rows UNION SELECT calendar_id FROM old_rows);
  ELSE
    -- A location deleted by its calendar's own cascade finds no calendar row left: nothing to do.
    UPDATE business_calendars SET rules_version = rules_version + 1
      WHERE id IN (SELECT calendar_id FROM old_rows);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER calendar_locations_rules_inserted AFTER INSERT ON calendar_locations
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_locations_rules_changed();
--> statement-breakpoint
CREATE TRIGGER calendar_locations_rules_updated AFTER UPDATE ON calendar_locations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_locations_rules_changed();
--> statement-breakpoint
CREATE TRIGGER calendar_locations_rules_deleted AFTER DELETE ON calendar_locations
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_locations_rules_changed();
--> statement-breakpoint
-- Business hours and holidays (holiday imports included: one statement, one bump per calendar)
-- raise the calendar of their location. Rows deleted by their location's cascade find no
-- location left; the location's own trigger has raised the calendar.
CREATE FUNCTION calendar_location_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE business_calendars SET rules_version = rules_version + 1
      WHERE id IN (SELECT l.calendar_id FROM calendar_locations l WHERE l.id IN (SELECT location_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE business_calendars SET rules_version = rules_version + 1
      WHERE id IN (SELECT l.calendar_id FROM calendar_locations l
                   WHERE l.id IN (SELECT location_id FROM new_rows UNION SELECT location_id FROM old_rows));
  ELSE
    UPDATE business_calendars SET rules_version = rules_version + 1
      WHERE id IN (SELECT l.calendar_id FROM calendar_locations l WHERE l.id IN (SELECT location_id FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER business_hours_rules_inserted AFTER INSERT ON business_hours
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_location_rules_changed();
--> statement-breakpoint
CREATE TRIGGER business_hours_rules_updated AFTER UPDATE ON business_hours
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_location_rules_changed();
--> statement-breakpoint
CREATE TRIGGER business_hours_rules_deleted AFTER DELETE ON business_hours
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_location_rules_changed();
--> statement-breakpoint
CREATE TRIGGER holidays_rules_inserted AFTER INSERT ON holidays
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_location_rules_changed();
--> statement-breakpoint
CREATE TRIGGER holidays_rules_updated AFTER UPDATE ON holidays
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_location_rules_changed();
--> statement-breakpoint
CREATE TRIGGER holidays_rules_deleted AFTER DELETE ON holidays
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION calendar_location_rules_changed();
