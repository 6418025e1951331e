import type { Logger } from 'pino';
import type { AppDeps } from './deps';

/** What the identity middleware establishes about the caller of a tenant route. */
export interface Caller {
  tenantId: string;
  userId: string;
  isMember: boolean;
  isOwner: boolean;
  isOperator: boolean;
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
