// Standard Webhooks signing (https://www.standardwebhooks.com): a `whsec_` secret of 32 random
// bytes, and `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret, space-separated, so a
// receiver holding either secret of a rotation verifies the delivery.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` and the base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The shape of a secret this platform issues; the log scan looks for its prefix. */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** The `webhook-signature` header: one `v1,` signature per secret, current first. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' ');
}
