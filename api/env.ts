import type { Logger } from 'pino';
import type { CallerSnapshot } from '../db/queries/caller-snapshot';
import type { AppDeps } from './deps';

/** What the identity middleware establishes about the caller of a tenant route. */
export interface Caller {
  tenantId: string;
  userId: string;
  isMember: boolean;
  isOwner: boolean;
  isOperator: boolean;
  /** Subscriptions of the tenant and grants of the caller, as loaded (or cached) for this request. */
  snapshot: CallerSnapshot;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    log: Logger;
    userId: string;
    caller: Caller;
  };
}
