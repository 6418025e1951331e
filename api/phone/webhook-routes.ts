import { createRoute, z } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import { AppError } from '../../domain/errors';
import { parseServerMessage } from '../../domain/phone/webhook-messages';
import type { Settings } from '../../domain/settings';
import { boundedBody } from '../body';
import { sameSecret } from '../middleware/internal-key';
import { createRouter, jsonContent, problemResponses } from '../openapi';
import { handleServerMessage } from './webhook-handlers';

const WARN_EVERY_MS = 60_000;
/** Far above any real message (a long call's end-of-call-report is well under 1 MiB). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export type SecretVerdict = 'ok' | 'allowed-unset' | 'allowed-missing' | 'reject';

/**
 * Spec, Authentication "Provider webhook":
 * - no secret configured: allowed with a warning, unless require-secret is on (then nothing can match: 401);
 * - secret configured and presented correctly: allowed;
 * - secret configured, header missing: 401 when require-secret is on, else allowed with a warning
 *   (lets an operator configure the provider before enforcing);
 * - secret configured, header wrong: always 401 (a wrong secret is never accepted).
 */
export function checkVoiceSecret(
  settings: Pick<Settings, 'phone.webhook-secret' | 'phone.webhook-require-secret'>,
  given: string | undefined,
): SecretVerdict {
  const expected = settings['phone.webhook-secret'];
  const required = settings['phone.webhook-require-secret'];
  const presented = given !== undefined && given !== '';
  if (!expected) return required ? 'reject' : 'allowed-unset';
  if (presented) return sameSecret(given, expected) ? 'ok' : 'reject';
  return required ? 'reject' : 'allowed-missing';
}

/** First occurrence, then at most once a minute per kind: a misconfiguration must show, not flood. */
function warningThrottle() {
  const last = new Map<string, number>();
  return (log: Logger, kind: string, message: string) => {
    const now = Date.now();
    if (now - (last.get(kind) ?? -Infinity) < WARN_EVERY_MS) return;
    last.set(kind, now);
    log.warn({ webhookSecret: kind }, message);
  };
}

const WebhookAnswer = z
  .union([
    z.object({ assistantId: z.string() }),
    z.object({ error: z.string() }),
    z.object({
      results: z.array(
        z.object({ toolCallId: z.string(), name: z.string(), result: z.string().optional(), error: z.string().optional() }),
      ),
    }),
    z.object({}),
  ])
  .openapi('PhoneWebhookAnswer');

/** Counted on the stream, chunked or not: a Content-Length check alone let any chunked body through. */
const webhookBody = boundedBody(MAX_BODY_BYTES, 'Webhook bodies');

export function webhookRoutes() {
  const app = createRouter();
  const warn = warningThrottle();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/public/phone/webhook',
      tags: ['Phone: provider webhook'],
      summary: 'Provider webhooks (server messages); the only unauthenticated phone route',
      description:
        'Body `{ message: { type, ... } }` as the provider sends it. `assistant-request` answers `{ assistantId }` or ' +
        '`{ error }` (declined); `tool-calls` answers `{ results: [{ toolCallId, name, result | error }] }` within ' +
        '`phone.tool-calls-budget-ms`; `status-update`, `end-of-call-report` and every other type answer `{}`. ' +
        'Always 200 once the secret check passed, even when handling fails inside; never 500. ' +
        'The tenant comes from the call or the dialled number, never from headers.',
      security: [{ VoiceSecret: [] }],
      middleware: [webhookBody] as const,
      responses: { 200: jsonContent(WebhookAnswer, 'Acknowledged'), ...problemResponses(401, 413) },
    }),
    async (c) => {
      const deps = c.get('deps');
      const deadline = Date.now() + deps.settings['phone.tool-calls-budget-ms'];
      const log = c.get('log').child({ component: 'phone-webhook' });
      const verdict = checkVoiceSecret(deps.settings, c.req.header('x-voice-secret'));
      if (verdict === 'reject') {
        log.warn('webhook refused: X-Voice-Secret missing or wrong');
        throw new AppError('webhook-secret-invalid', 'Header X-Voice-Secret is missing or wrong');
      }
      if (verdict === 'allowed-unset') {
        warn(log, 'unset', 'phone.webhook-secret is not set: provider webhooks are accepted unauthenticated');
      } else if (verdict === 'allowed-missing') {
        warn(log, 'missing', 'webhook without X-Voice-Secret accepted (phone.webhook-require-secret is off)');
      }
      let body = '';
      try {
        body = await c.req.text();
      } catch (err) {
        log.warn({ err }, 'webhook body could not be read');
      }
      const answer = await handleServerMessage(deps, log, parseServerMessage(body), deadline);
      return c.json(answer, 200);
    },
  );

  return app;
}
