// Group ids carry their kind and tenant, so ownership is asked of one well-known group
// (`owner:<tenantId>`) and a membership change knows which tenant's cached snapshots it touches.

export const ownerGroupId = (tenantId: string) => `owner:${tenantId}`;
export const roleGroupId = (tenantId: string, name: string) => `role:${tenantId}:${name}`;

/** Which tenant a group's membership affects: its own, or all of them (`*`) for global groups. */
export const tenantOfGroup = (groupId: string) =>
  groupId.startsWith('owner:') ? groupId.slice('owner:'.length) : groupId.startsWith('role:') ? null : '*';
