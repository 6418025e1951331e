// Which operations the fuzzer runs in which pass, and the Schemathesis config that hands each
// operation its fixtures (scripts/fuzz-fixtures.ts). Passes, in order:
//   1. everything that leaves its records alive;
//   2. the operations that destroy, close or rename one (DELETE, purge, cancel, submit, signing,
//      rotate, retire, the replacing PUTs of calendars, locations and process calendars), each on a
//      sacrificial record where another operation of the pass needs the same one;
//   3. access administration (/api/tenants/…, /api/org/…, invitations), and
//   4. its destructive operations last of all: they revoke the fixture's own subscriptions and
//      grants, and every capability route after that would only ever see 403.
import type { FixturePlan, Params } from './fuzz-fixtures';

export type OpenApi = { paths: Record<string, Record<string, unknown>> };

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const ACCESS_ADMIN = /^\/api\/(tenants|org|invitations)\//;
const DESTRUCTIVE = /^DELETE |\/(purge|cancel|deny|approve|rotate|retire|unretire|submit)$|^POST \/api\/public\/sign(-instance)?\/\{token\}$|^PUT \/api\/(business-calendars\/\{code\}(\/locations\/\{loc\})?|process-calendars\/\{key\})$/;

export function operationNames(openapi: OpenApi): string[] {
  return Object.entries(openapi.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

export function passes(openapi: OpenApi): Array<{ name: string; operations: string[] }> {
  const all = operationNames(openapi);
  const pick = (admin: boolean, destructive: boolean) =>
    all.filter((name) => ACCESS_ADMIN.test(name.split(' ')[1]!) === admin && DESTRUCTIVE.test(name) === destructive);
  return [
    { name: 'capabilities', operations: pick(false, false) },
    { name: 'capabilities, destructive', operations: pick(false, true) },
    { name: 'access administration', operations: pick(true, false) },
    { name: 'access administration, destructive', operations: pick(true, true) },
  ].filter((pass) => pass.operations.length > 0);
}

export function parametersFor(name: string, plan: FixturePlan): Params | undefined {
  return plan.byOperation[name] ?? plan.byPath.find(([re]) => re.test(name.split(' ')[1]!))?.[1];
}

const tomlString = (s: string) => JSON.stringify(s);

/**
 * Operations whose examples phase only costs time: no examples in their schema, yet Schemathesis
 * spends 40-100 s on this machine looking for them (the MIME-type pattern of `contentType`).
 */
const NO_EXAMPLES_PHASE = new Set(['POST /api/internal/documents/authorize']);

/** One `[[operations]]` entry per operation that has fixtures or settings, so no two entries ever merge. */
export function schemathesisConfig(openapi: OpenApi, plan: FixturePlan): string {
  return operationNames(openapi)
    .map((name) => {
      const params = parametersFor(name, plan);
      const lines = [
        ...(params ? [`parameters = { ${Object.entries(params).map(([k, v]) => `${tomlString(k)} = ${JSON.stringify(v)}`).join(', ')} }`] : []),
        ...(NO_EXAMPLES_PHASE.has(name) ? ['phases.examples.enabled = false'] : []),
      ];
      return lines.length ? `[[operations]]\ninclude-name = ${tomlString(name)}\n${lines.join('\n')}\n` : '';
    })
    .filter(Boolean)
    .join('\n');
}
