import { describe, expect, it } from 'vitest';
import { isPhoneActionNode, resolvePhoneActionInputs, resolvePlaceholders } from '../../../domain/phone/workflow-action';

describe('phone workflow action: node recognition', () => {
  it('accepts capability phone (or none) with node type phone or call, case-insensitively', () => {
    expect(isPhoneActionNode({ capability: 'phone', type: 'call' })).toBe(true);
    expect(isPhoneActionNode({ capability: 'PHONE', type: 'Phone' })).toBe(true);
    expect(isPhoneActionNode({ type: 'call' })).toBe(true);
  });
  it('refuses other capabilities and node types', () => {
    expect(isPhoneActionNode({ capability: 'forms', type: 'call' })).toBe(false);
    expect(isPhoneActionNode({ capability: 'phone', type: 'sms' })).toBe(false);
    expect(isPhoneActionNode(null)).toBe(false);
    expect(isPhoneActionNode('call')).toBe(false);
  });
});

describe('phone workflow action: ${name} placeholders', () => {
  const vars = { phone: '+14155550100', customer: { name: 'Ada', tier: 3 }, order: { id: 'o-1', lines: [1, 2] }, empty: null };

  it('a whole-string placeholder keeps the variable’s type', () => {
    expect(resolvePlaceholders('${order}', vars)).toEqual({ value: { id: 'o-1', lines: [1, 2] }, missing: [] });
    expect(resolvePlaceholders('${customer.tier}', vars).value).toBe(3);
  });
  it('placeholders inside text are rendered as text (maps as JSON, null as empty)', () => {
    expect(resolvePlaceholders('Hi ${customer.name}, tier ${customer.tier}${empty}', vars).value).toBe('Hi Ada, tier 3');
    expect(resolvePlaceholders('order ${order}', vars).value).toBe('order {"id":"o-1","lines":[1,2]}');
  });
  it('resolves inside arrays and maps, reports unknown names, and keeps $${x} literal', () => {
    const r = resolvePlaceholders({ a: ['${phone}', 'x ${nope}'], b: { c: '$${phone}' } }, vars);
    expect(r.value).toEqual({ a: ['+14155550100', 'x '], b: { c: '${phone}' } });
    expect(r.missing).toEqual(['nope']);
  });
  it('does not walk into prototypes', () => {
    expect(resolvePlaceholders('${constructor}', vars).missing).toEqual(['constructor']);
    expect(resolvePlaceholders('${customer.toString}', vars).missing).toEqual(['customer.toString']);
  });
});

describe('phone workflow action: inputs', () => {
  it('resolves the placement inputs (to is an alias of customerNumber; empty optional ids are absent)', () => {
    const r = resolvePhoneActionInputs(
      { capability: 'phone', type: 'call', inputs: { to: '${phone}', assistantId: '', customerName: '${n}', variableValues: { x: '${n}' } } },
      { phone: '+14155550100', n: 'Bo' },
    );
    expect(r).toEqual({ ok: true, inputs: { customerNumber: '+14155550100', customerName: 'Bo', variableValues: { x: 'Bo' } } });
  });
  it('reports every problem: unknown input, unresolved name, wrong type, missing number, duplicate', () => {
    const r = resolvePhoneActionInputs(
      { type: 'phone', inputs: { colour: 'red', assistantId: '${a}', metadata: 'text', to: '+1', customerNumber: '+2' } },
      {},
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual(
      expect.arrayContaining([
        'unresolved placeholder ${a}',
        'unknown input colour',
        'input metadata must be a map',
        'input customerNumber is given twice',
      ]),
    );
    const none = resolvePhoneActionInputs({ type: 'call', inputs: {} });
    expect(none).toEqual({ ok: false, problems: ['input customerNumber is required'] });
  });
  it('refuses a node that is not a phone action', () => {
    expect(resolvePhoneActionInputs({ type: 'email', inputs: {} }).ok).toBe(false);
  });
});
