/**
 * A Temporal process as the rest of the platform sees it: which capability owns it, the
 * workflow type the worker registers, how its business key (and so its workflow id) follows
 * from its input, and the signals it accepts with their payloads. Plain data, so the API, the
 * services, the dispatcher and the workflow bundle share one definition without importing each
 * other. Enqueueing (db/outbox.ts) takes a contract and a typed input, never a bare type name.
 */

/** A signal a workflow accepts. `payload` exists only in the type: it carries the payload type. */
export interface SignalContract<P> {
  readonly name: string;
  readonly payload?: P;
}

export const signalContract = <P>(name: string): SignalContract<P> => ({ name });

export type PayloadOf<S> = S extends SignalContract<infer P> ? P : never;

export interface ProcessContract<I, S extends Record<string, SignalContract<unknown>> = Record<string, never>> {
  readonly capability: string;
  readonly workflowType: string;
  readonly tenantOf: (input: I) => string;
  /**
   * The business key its workflow id follows from. null: the process is not enqueued by key
   * (a child workflow, or one its caller or a schedule starts under an id of its own).
   */
  readonly businessKey: ((input: I) => string) | null;
  readonly signals: S;
  /** Type only: the workflow function's one argument. */
  readonly input?: I;
}


/** `defineProcess<Input>()({ ... })`: the input type is named, the signals are inferred. */
export const defineProcess =
  <I>() =>
  <S extends Record<string, SignalContract<unknown>>, K extends ((input: I) => string) | null>(
    c: Omit<ProcessContract<I, S>, 'input' | 'businessKey'> & { readonly businessKey: K },
  ): ProcessContract<I, S> & { readonly businessKey: K } =>
    c;

/** DESIGN: workflow ids are `<capability>:<tenant>:<key>`; deterministic, so a repeated start is a no-op. */
export const workflowIdFor = (capability: string, tenantId: string, businessKey: string) =>
  `${capability.toLowerCase()}:${tenantId}:${businessKey}`;

/** A process the outbox can start: its workflow id follows from its input. */
export type KeyedProcessContract<I, S extends Record<string, SignalContract<unknown>> = Record<string, SignalContract<unknown>>> =
  ProcessContract<I, S> & { readonly businessKey: (input: I) => string };

/** The workflow a contract's input runs as. */
export function processIdentity<I>(contract: KeyedProcessContract<I>, input: I) {
  const tenantId = contract.tenantOf(input);
  const businessKey = contract.businessKey(input);
  return { capability: contract.capability, tenantId, businessKey, workflowId: workflowIdFor(contract.capability, tenantId, businessKey) };
}
