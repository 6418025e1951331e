// Every Temporal process the platform runs, by its contract. A unit test holds each workflow type
// to a function exported by workflows/index.ts, and each signal to a handler name.
import { AccessRequestExpirySweepProcess, GrantExpiryProcess } from './access/expiry-processes';
import { SlaClockProcess } from './calendar/sla-clock-process';
import { SlaDueDateProcess } from './calendar/sla-process';
import { RetentionPurgeProcess } from './documents/retention-purge-process';
import { DocumentScanProcess } from './documents/scan-process';
import { FormIntakeProcess } from './forms/intake-process';
import { FormExpirySweepProcess } from './forms/outbound-expiry-process';
import { PhoneActionProcess } from './phone/action-process';
import { PhoneCallProcess } from './phone/call-process';
import { SignatureCeremonyProcess } from './signatures/ceremony-process';
import { WebhookDeliveryProcess } from './webhooks/delivery-process';

export const PLATFORM_PROCESSES = [
  PhoneCallProcess,
  PhoneActionProcess,
  DocumentScanProcess,
  RetentionPurgeProcess,
  SlaDueDateProcess,
  SlaClockProcess,
  FormIntakeProcess,
  FormExpirySweepProcess,
  SignatureCeremonyProcess,
  GrantExpiryProcess,
  AccessRequestExpirySweepProcess,
  WebhookDeliveryProcess,
] as const;
