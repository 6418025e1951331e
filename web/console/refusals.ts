// The API's refusals in words a person understands. The codes are the JSON API's (the console
// calls the same services), so a refusal reads the same whichever way it was met.
import { AppError } from '../../domain/errors';
import type { ErrorCode } from '../../domain/error-codes';

const SENTENCES: Partial<Record<ErrorCode, string>> = {
  'self-approval': 'You cannot decide your own request: another owner or a platform operator has to.',
  'request-not-pending': 'This request has already been decided, cancelled or has expired, so it can no longer be changed.',
  'tenant-not-subscribed': 'The tenant is no longer subscribed to this capability, so access to it cannot be granted.',
  'requested-capability-not-subscribed': 'The tenant is not subscribed to this capability, so access to it cannot be requested.',
  'capability-unknown': 'This capability is not offered any more.',
  'capability-not-found': 'This capability is not offered any more.',
  'already-granted': 'You already have this level of access (or more).',
  'request-already-open': 'You already have an open request for this capability. Cancel it first to ask again.',
  'not-requester': 'Only the person who made a request can cancel it.',
  'access-request-not-found': 'This request does not exist any more.',
  'last-owner': 'This is the only owner of the tenant. Make someone else an owner first.',
  'member-not-found': 'This person is not a member of the tenant (any more).',
  'user-not-a-member': 'This person is not a member of the tenant. Add them as a member first.',
  'grant-not-found': 'This person no longer has access to that capability.',
  'group-exists': 'A group with this name already exists.',
  'group-not-found': 'This group does not exist any more.',
  'group-member-not-found': 'This person is not in the group (any more).',
  'invitation-not-found': 'This invitation is no longer open: it was used or revoked, or it does not exist.',
  'invitation-used': 'This invitation has already been used.',
  'invitation-expired': 'This invitation has expired. Ask an owner of the tenant for a new one.',
  'api-client-role-fixed': 'An API client cannot become an owner or change its role.',
  'owner-required': 'Only an owner of this tenant or a platform operator can do this.',
  'not-a-member': 'You are not a member of this tenant.',
  'tenant-not-found': 'This tenant does not exist, or you do not belong to it.',
  'capability-not-subscribed': 'The tenant is not subscribed to this capability.',
  'capability-not-granted': 'You do not have access to this capability. You can request it under Access, Manage My Access.',
  'capability-write-required': 'You can look at this capability but not change anything: that needs read-write access.',
  'missing-header': 'You are not signed in.',
  'token-required': 'You are not signed in.',
  'rate-limited': 'Too many requests in a short time. Wait a moment and try again.',
  'invalid-token': 'Your sign-in could not be verified. Sign in again.',
  'identity-provider-unavailable': 'Your sign-in cannot be checked right now: the identity provider did not answer. Try again in a moment.',
};

/** The sentence for a refusal; an AppError without one keeps the API's own detail. */
export function refusalText(err: unknown): string {
  if (err instanceof AppError) {
    if (err.code === 'validation-failed' && err.extra['inWords']) return err.detail;
    if (err.code === 'validation-failed') return 'Some of what you entered cannot be used. Check the fields and try again.';
    return SENTENCES[err.code] ?? err.detail;
  }
  return 'Something went wrong and nothing was changed. Try again.';
}
