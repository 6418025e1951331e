import { Counter } from 'prom-client';
import { metricsRegistry } from './registry';

const messages = new Counter({
  name: 'platform_phone_webhook_messages_total',
  help: 'Provider webhook messages by parsed type (unknown types count as "unknown") and outcome (handled, or failed and acknowledged).',
  labelNames: ['type', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** `type` is the parser's closed set (assistant-request, tool-calls, ..., unknown, invalid), never the raw field. */
export const countPhoneWebhookMessage = (type: string, outcome: 'handled' | 'failed') => messages.inc({ type, outcome });
