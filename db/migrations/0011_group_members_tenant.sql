-- A group member row carries its group's tenant, so the membership foreign key
-- (group_members_membership_fk) applies to every tenant group; global groups keep NULL.
UPDATE "group_members" gm SET "tenant_id" = g."tenant_id" FROM "groups" g WHERE g."id" = gm."group_id";
--> statement-breakpoint
CREATE FUNCTION group_members_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Taken from the group, never from the writer, so it cannot be set to another tenant or left out.
  NEW.tenant_id := (SELECT g.tenant_id FROM groups g WHERE g.id = NEW.group_id);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER group_members_tenant BEFORE INSERT OR UPDATE ON "group_members"
  FOR EACH ROW EXECUTE FUNCTION group_members_tenant();
