-- Before grants and tenant-group memberships reference the membership (next migration): drop the
-- ones that races left on users who are no longer members of the tenant.
DELETE FROM "capability_grants" g
WHERE NOT EXISTS (SELECT 1 FROM "tenant_members" m WHERE m."tenant_id" = g."tenant_id" AND m."user_id" = g."user_id");
--> statement-breakpoint
DELETE FROM "group_members" gm
USING "groups" g
WHERE g."id" = gm."group_id" AND g."tenant_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "tenant_members" m WHERE m."tenant_id" = g."tenant_id" AND m."user_id" = gm."user_id");
