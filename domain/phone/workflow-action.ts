/**
 * The phone workflow action (spec, Endpoints rule 1): a node with capability `phone` and type
 * `phone` or `call` whose inputs may hold `${name}` placeholders, resolved from the calling
 * workflow's variables. Pure: the activity that places the call runs this first.
 */
type JsonMap = Record<string, unknown>;

export const PHONE_ACTION_CAPABILITY = 'phone';
export const PHONE_ACTION_NODE_TYPES = ['phone', 'call'] as const;
/**
 * Business failures of the action, raised to the calling workflow without retries. The
 * operation's own 4xx refusals arrive typed with their error code (activities/failures.ts).
 */
export const PHONE_ACTION_FAILURE_TYPES = ['PhoneActionInvalid'] as const;

export interface PhoneActionNode {
  /** `phone`; optional because a node registered under the capability may omit it. */
  capability?: string;
  type: string;
  inputs?: JsonMap;
}

export interface PhoneActionInputs {
  customerNumber: string;
  customerName?: string;
  assistantId?: string;
  phoneNumberId?: string;
  variableValues?: JsonMap;
  metadata?: JsonMap;
  /** The calling calendar's location whose hours are the callee's window (docs/phone.md "Calling windows"). */
  calleeLocationCode?: string;
}

export type PhoneActionResolution = { ok: true; inputs: PhoneActionInputs } | { ok: false; problems: string[] };

/** `${name}` or `${a.b.c}` (dotted paths walk into maps); `$${...}` is a literal `${...}`. */
const PLACEHOLDER = /\$?\$\{([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\}$/;

const isMap = (v: unknown): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isPhoneActionNode(node: unknown): node is PhoneActionNode {
  if (!isMap(node)) return false;
  const capability = node.capability;
  if (capability !== undefined && (typeof capability !== 'string' || capability.toLowerCase() !== PHONE_ACTION_CAPABILITY)) {
    return false;
  }
  return typeof node.type === 'string' && (PHONE_ACTION_NODE_TYPES as readonly string[]).includes(node.type.toLowerCase());
}

function lookup(variables: JsonMap, path: string): { found: boolean; value: unknown } {
  let current: unknown = variables;
  for (const part of path.split('.')) {
    if (!isMap(current) || !Object.hasOwn(current, part)) return { found: false, value: undefined };
    current = current[part];
  }
  return { found: true, value: current };
}

const render = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Resolves every placeholder in a value (strings, arrays and maps, recursively). A string that
 * is exactly one placeholder takes the variable's value with its type (a map stays a map);
 * placeholders inside longer strings are rendered as text. Unknown names are reported.
 */
export function resolvePlaceholders(value: unknown, variables: JsonMap): { value: unknown; missing: string[] } {
  const missing: string[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = WHOLE.exec(v);
      if (whole) {
        const hit = lookup(variables, whole[1]!);
        if (!hit.found) missing.push(whole[1]!);
        return hit.value;
      }
      return v.replace(PLACEHOLDER, (match, name: string) => {
        if (match.startsWith('$$')) return match.slice(1);
        const hit = lookup(variables, name);
        if (!hit.found) missing.push(name);
        return render(hit.value);
      });
    }
    if (Array.isArray(v)) return v.map(walk);
    if (isMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value), missing: [...new Set(missing)] };
}

const STRING_INPUTS = ['customerNumber', 'customerName', 'assistantId', 'phoneNumberId', 'calleeLocationCode'] as const;
const MAP_INPUTS = ['variableValues', 'metadata'] as const;
/** `to` is accepted for `customerNumber`, as process designers tend to write it. */
const ALIASES: Readonly<Record<string, string>> = { to: 'customerNumber' };

/** Node → the placement inputs, or every problem found (unknown inputs, unresolved names, wrong types). */
export function resolvePhoneActionInputs(node: unknown, variables: JsonMap = {}): PhoneActionResolution {
  if (!isPhoneActionNode(node)) {
    return { ok: false, problems: [`not a phone action: capability must be "phone" and type "phone" or "call"`] };
  }
  const problems: string[] = [];
  const raw = node.inputs ?? {};
  if (!isMap(raw)) return { ok: false, problems: ['inputs must be a map'] };
  const { value, missing } = resolvePlaceholders(raw, variables);
  for (const name of missing) problems.push(`unresolved placeholder \${${name}}`);
  const out: JsonMap = {};
  for (const [key, v] of Object.entries(value as JsonMap)) {
    const name = ALIASES[key] ?? key;
    if (name in out) problems.push(`input ${name} is given twice`);
    out[name] = v;
  }
  const inputs: Partial<PhoneActionInputs> = {};
  for (const [key, v] of Object.entries(out)) {
    if ((STRING_INPUTS as readonly string[]).includes(key)) {
      if (v === null || v === undefined || v === '') continue;
      if (typeof v === 'number' || typeof v === 'string') {
        (inputs as JsonMap)[key] = String(v).trim();
      } else problems.push(`input ${key} must be text`);
    } else if ((MAP_INPUTS as readonly string[]).includes(key)) {
      if (v === null || v === undefined) continue;
      if (isMap(v)) (inputs as JsonMap)[key] = v;
      else problems.push(`input ${key} must be a map`);
    } else {
      problems.push(`unknown input ${key}`);
    }
  }
  if (inputs.customerNumber === undefined) problems.push('input customerNumber is required');
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, inputs: inputs as PhoneActionInputs };
}
