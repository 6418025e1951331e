import { AppError } from '../errors';

/** Grants and group memberships are given to members of the tenant only. */
export function requireMember(exists: unknown, userId: string) {
  if (!exists) throw new AppError('user-not-a-member', `User ${userId} is not a member of this tenant`);
}

/** API clients are machine principals: they get grants, never ownership or a person's role. */
export function refuseApiClient(member: { role: string } | null) {
  if (member?.role === 'api-client') {
    throw new AppError('api-client-role-fixed', 'An API client cannot be an owner or change its role');
  }
}
