/** The memberships a tenant switcher lists: the tenants a user belongs to (operators: every tenant). */
export interface ViewerTenant {
  id: string;
  name: string;
  role: 'OWNER' | 'MEMBER' | 'OPERATOR';
}

/**
 * Who is looking at a /console/{tenantId}/* page, established once per request by the console
 * middleware from the same identity and caller facts the JSON API uses.
 */
export interface ConsoleViewer {
  userId: string;
  displayName: string | null;
  isOperator: boolean;
  tenantId: string;
  tenants: ViewerTenant[];
  /** The viewer's own standing in this tenant; null for an operator who is not a member. */
  role: 'OWNER' | 'MEMBER' | null;
  /** Owner or operator: may use the owner-only access sections. */
  isOwner: boolean;
  /** The tenant's ACTIVE subscriptions the viewer holds a live grant for. */
  capabilities: { code: string; level: 'READ' | 'WRITE' }[];
}
