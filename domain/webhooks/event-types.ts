// The webhook event catalog (docs/webhooks.md "Events"): every type a tenant may subscribe an
// endpoint to, with its one-line meaning and an example of what a receiver gets. Database triggers
// (migration 0027) write these types; a test holds the two together by firing each from a real flow.
import { FORM_INSTANCE_STATES } from '../forms/instance-states';

export interface WebhookEventTypeDef {
  description: string;
  /** An example `data` object; `link` is the record's API URL. */
  example: Record<string, unknown>;
}

const at = '2026-05-04T09:30:00.000Z';
const base = 'https://platform.example.com';
const formInstanceId = '6f1d2a9e-0c4b-4f0e-9d53-6a1f3b2c7e10';
const signatureInstanceId = '0b9d2a6e-6c1f-4b43-9a70-2f1d6f0c1a11';
const signatureDefinitionId = '4a4f5e9b-1f4d-4b8e-8a43-1f2d3c4b5a69';

const formEvent = (state: (typeof FORM_INSTANCE_STATES)[number], previousState: string | null): WebhookEventTypeDef => ({
  description:
    state === 'DRAFT'
      ? 'A form instance was created as a DRAFT (the event rail\'s `draft`).'
      : `A form instance entered ${state} (the event rail's \`${state.toLowerCase()}\`), whatever moved it.`,
  example: {
    instanceId: formInstanceId,
    formCode: 'contact',
    definitionVersion: 3,
    state,
    previousState,
    link: `${base}/api/form-instances/${formInstanceId}`,
  },
});

const PREVIOUS_FORM_STATE: Record<(typeof FORM_INSTANCE_STATES)[number], string | null> = {
  DRAFT: null,
  SENT: null,
  OPENED: 'SENT',
  SUBMITTED: 'OPENED',
  PROCESSED: 'SUBMITTED',
  CANCELLED: 'DRAFT',
  EXPIRED: 'SENT',
};

const signatureInstanceEvent = (description: string, status: string, sealStatus: string | null): WebhookEventTypeDef => ({
  description,
  example: {
    instanceId: signatureInstanceId,
    definitionId: signatureDefinitionId,
    version: 2,
    status,
    sealStatus,
    link: `${base}/api/signature-instances/${signatureInstanceId}`,
  },
});

const slaClockId = '7c3e5a1f-9b2d-4c6e-8f0a-1b3d5f7a9c2e';
const slaClockEvent = (description: string, state: string, percent: number | null): WebhookEventTypeDef => ({
  description,
  example: {
    clockId: slaClockId,
    subject: { kind: 'ticket', id: 'T-4711' },
    processCalendarKey: 'support',
    state,
    percent,
    reachedAt: at,
    dueAt: '2026-05-05T11:00:00.000Z',
    link: `${base}/api/sla-clocks/${slaClockId}`,
  },
});

export const WEBHOOK_EVENT_TYPES = {
  ...(Object.fromEntries(FORM_INSTANCE_STATES.map((s) => [`form.instance.${s.toLowerCase()}`, formEvent(s, PREVIOUS_FORM_STATE[s])])) as Record<
    `form.instance.${Lowercase<(typeof FORM_INSTANCE_STATES)[number]>}`,
    WebhookEventTypeDef
  >),
  'signature.instance.completed': signatureInstanceEvent('Every recipient of a signing campaign signed; the seal follows.', 'COMPLETED', null),
  'signature.instance.sealed': signatureInstanceEvent('A completed campaign\'s signed PDF was sealed and stored.', 'COMPLETED', 'SEALED'),
  'signature.instance.seal_failed': signatureInstanceEvent('Sealing a completed campaign failed; the ceremony retries it.', 'COMPLETED', 'FAILED'),
  'signature.instance.cancelled': signatureInstanceEvent('A signing campaign was cancelled.', 'CANCELLED', null),
  'signature.instance.expired': signatureInstanceEvent('A signing campaign expired before every recipient signed.', 'EXPIRED', null),
  'signature.recipient.signed': {
    description: 'One recipient (a signer role) of a signing campaign signed.',
    example: {
      instanceId: signatureInstanceId,
      definitionId: signatureDefinitionId,
      version: 2,
      signerId: 'employee',
      status: 'R_SIGNED',
      link: `${base}/api/signature-instances/${signatureInstanceId}`,
    },
  },
  'phone.call.ended': {
    description: 'A call reached its terminal status (ENDED or FAILED), from the provider\'s webhooks or reconciliation.',
    example: {
      callId: '9c1e7f4a-2b3d-4e5f-8a9b-0c1d2e3f4a5b',
      direction: 'OUTBOUND',
      status: 'ENDED',
      endedReason: 'customer-ended-call',
      startedAt: '2026-05-04T09:26:12.000Z',
      endedAt: '2026-05-04T09:30:00.000Z',
      firstCallId: '9c1e7f4a-2b3d-4e5f-8a9b-0c1d2e3f4a5b',
      attempt: 1,
      link: `${base}/api/phone-calls/9c1e7f4a-2b3d-4e5f-8a9b-0c1d2e3f4a5b`,
    },
  },
  'document.ready': {
    description: 'A document\'s bytes are stored (and scanned clean, when scanning is on): it can be downloaded.',
    example: {
      documentId: '2d4c6e8a-0b1d-4f3a-9c5e-7a9b1c3d5e7f',
      kind: 'FORM_ATTACHMENT',
      capability: 'FORMS',
      processRef: 'emb_7ZcQ1f9bX2kLmN4pR6sT8v',
      status: 'READY',
      scanStatus: 'CLEAN',
      link: `${base}/api/documents/2d4c6e8a-0b1d-4f3a-9c5e-7a9b1c3d5e7f`,
    },
  },
  'document.quarantined': {
    description: 'The malware scan found a document infected; it is QUARANTINED and cannot be downloaded.',
    example: {
      documentId: '2d4c6e8a-0b1d-4f3a-9c5e-7a9b1c3d5e7f',
      kind: 'GENERIC',
      capability: 'FORMS',
      processRef: 'case-4711',
      status: 'QUARANTINED',
      scanStatus: 'INFECTED',
      link: `${base}/api/documents/2d4c6e8a-0b1d-4f3a-9c5e-7a9b1c3d5e7f`,
    },
  },
  'sla.clock.warning': slaClockEvent('An SLA clock reached one of its warning percentages of the business-time budget.', 'RUNNING', 75),
  'sla.clock.breached': slaClockEvent('An SLA clock used its whole business-time budget before it was stopped.', 'BREACHED', 100),
  'sla.clock.met': slaClockEvent('An SLA clock was stopped before its due date.', 'MET', null),
  'webhook.test': {
    description: 'Sent by `POST /api/webhook-endpoints/{id}/test` to that endpoint alone, through the same path and signature as real events; never subscribed.',
    example: { endpointId: '5e7a9c1b-3d5f-4a7b-9c1d-3e5f7a9b1c3d', link: `${base}/api/webhook-endpoints/5e7a9c1b-3d5f-4a7b-9c1d-3e5f7a9b1c3d` },
  },
} as const satisfies Record<string, WebhookEventTypeDef>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;

export const TEST_EVENT_TYPE = 'webhook.test' satisfies WebhookEventType;

/** The types an endpoint may subscribe to: every type but the test event, which only its route sends. */
export const SUBSCRIBABLE_EVENT_TYPES = (Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[]).filter((t) => t !== TEST_EVENT_TYPE) as [
  Exclude<WebhookEventType, typeof TEST_EVENT_TYPE>,
  ...Exclude<WebhookEventType, typeof TEST_EVENT_TYPE>[],
];
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

export const isWebhookEventType = (t: string): t is WebhookEventType => Object.hasOwn(WEBHOOK_EVENT_TYPES, t);
