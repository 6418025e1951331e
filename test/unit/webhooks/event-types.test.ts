import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORM_INSTANCE_STATES } from '../../../domain/forms/instance-states';
import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/event-types';

describe('the webhook event catalog', () => {
  it('has a form type per event rail name (the lower-cased state) and the issue\'s signature, call and document types', () => {
    const types = Object.keys(WEBHOOK_EVENT_TYPES);
    for (const state of FORM_INSTANCE_STATES) expect(types).toContain(`form.instance.${state.toLowerCase()}`);
    for (const t of ['completed', 'sealed', 'seal_failed', 'cancelled', 'expired']) expect(types).toContain(`signature.instance.${t}`);
    expect(types).toEqual(expect.arrayContaining(['signature.recipient.signed', 'phone.call.ended', 'document.ready', 'document.quarantined', 'webhook.test']));
    expect(SUBSCRIBABLE_EVENT_TYPES).not.toContain('webhook.test');
    expect(SUBSCRIBABLE_EVENT_TYPES).toHaveLength(types.length - 1);
  });

  it('docs/webhooks.md lists every type', () => {
    const docs = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    for (const type of Object.keys(WEBHOOK_EVENT_TYPES)) expect(docs, type).toContain(`\`${type}\``);
  });
});
