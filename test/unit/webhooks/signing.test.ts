import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/event-types';
import { webhookBody } from '../../../domain/webhooks/payload';
import { newWebhookSecret, signatureHeader, WEBHOOK_SECRET } from '../../../domain/webhooks/signing';

describe('webhook signing (Standard Webhooks)', () => {
  it('a secret is whsec_ and the base64 of 32 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(WEBHOOK_SECRET);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('during a rotation the header carries two signatures, and a receiver holding either secret verifies it', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const body = webhookBody({ type: 'webhook.test', data: { endpointId: 'e1', link: '/api/webhook-endpoints/e1' }, createdAt: new Date() }, 'https://p.example.com/');
    const now = new Date();
    const headers = {
      'webhook-id': 'evt-1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatureHeader([current, previous], 'evt-1', now, body),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'webhook.test', data: { link: 'https://p.example.com/api/webhook-endpoints/e1' } });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it('every catalog example is small: ids, states, times and a link, no names or e-mail addresses', () => {
    for (const [type, d] of Object.entries(WEBHOOK_EVENT_TYPES)) {
      const text = JSON.stringify(d.example);
      expect(text.length, type).toBeLessThan(600);
      expect(text, type).not.toMatch(/@|name"|email|answer|transcript|customerNumber/i);
      expect(d.example, type).toHaveProperty('link');
    }
  });
});
