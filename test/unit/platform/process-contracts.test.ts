// Each process contract names a workflow the worker registers and signals the workflows declare.
import { describe, expect, it } from 'vitest';
import { PLATFORM_PROCESSES } from '../../../domain/processes';
import { processIdentity, workflowIdFor } from '../../../domain/process-contract';
import { PhoneCallProcess } from '../../../domain/phone/call-process';
import { DocumentScanProcess } from '../../../domain/documents/scan-process';
import { DocumentAttachedSignal } from '../../../domain/documents/signals';
import * as workflows from '../../../workflows/index';

const exported = workflows as Record<string, unknown>;
const declaredSignals = new Set(
  Object.values(exported)
    .filter((v): v is { type: string; name: string } => typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'signal')
    .map((s) => s.name),
);

describe('process contracts', () => {
  it.each(PLATFORM_PROCESSES.map((c) => [c.workflowType, c] as const))('%s is a function exported by workflows/index.ts', (type, contract) => {
    expect(typeof exported[type]).toBe('function');
    expect(contract.capability).toMatch(/^[A-Z]+$/);
  });

  it('workflow types are unique', () => {
    const types = PLATFORM_PROCESSES.map((c) => c.workflowType);
    expect(new Set(types).size).toBe(types.length);
  });

  it('every signal a contract accepts is declared by a workflow (defineSignal with the same name)', () => {
    const names = [...PLATFORM_PROCESSES.flatMap((c) => Object.values(c.signals).map((s) => s.name)), DocumentAttachedSignal.name];
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect(declaredSignals, name).toContain(name);
  });

  it('the workflow id follows from the input: <capability>:<tenant>:<business key>', () => {
    expect(processIdentity(PhoneCallProcess, { tenantId: 't1', callId: 'c1' })).toEqual({
      capability: 'PHONE',
      tenantId: 't1',
      businessKey: 'c1',
      workflowId: 'phone:t1:c1',
    });
    const scan = processIdentity(DocumentScanProcess, { tenantId: 't1', docId: 'd1', retry: { initialMs: 1, maxMs: 2 } });
    expect(scan.workflowId).toBe(workflowIdFor('DOCUMENTS', 't1', 'scan-d1'));
  });
});
