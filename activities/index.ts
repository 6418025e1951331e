import { createCalendarActivities } from './calendars';
import type { ActivityDeps } from './deps';
import { createDocumentActivities } from './documents';
import { createFormActivities } from './forms';
import { createOutboundFormActivities } from './outbound-forms';
import { createOutboxActivities } from './outbox';
import { createPhoneActivities } from './phone';
import { createSignatureActivities } from './signatures';

/** Every activity the platform worker registers, merged from per-capability factories. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createOutboxActivities(deps),
    ...createDocumentActivities(deps),
    ...createPhoneActivities(deps),
    ...createCalendarActivities(deps),
    ...createFormActivities(deps),
    ...createOutboundFormActivities(deps),
    ...createSignatureActivities(deps),
  };
}

export type PlatformActivities = ReturnType<typeof createActivities>;
