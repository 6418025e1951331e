// Walks the request side of the app's OpenAPI document: every parameter and body schema, with
// $refs resolved. Shared by the vocabulary lint (unit) and the bad-input walk (integration).
import pino from 'pino';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { testSettings } from './app';

export type Schema = Record<string, any>;
export type Doc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };
export const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** The OpenAPI document as the app serves it; building the app touches no database. */
export async function openApiDocument(): Promise<Doc> {
  const deps = { db: {} as AppDeps['db'], settings: testSettings(), logger: pino({ level: 'silent' }), readiness: {} } as AppDeps;
  return (await createApp(deps).request('/openapi.json')).json() as Promise<Doc>;
}

export function resolve(doc: Doc, s: Schema | undefined): Schema {
  if (!s) return {};
  if (typeof s.$ref === 'string') return resolve(doc, doc.components!.schemas![s.$ref.replace('#/components/schemas/', '')]);
  return s;
}

export interface Operation {
  method: string;
  path: string;
  op: any;
  /** Path, query and header parameters. */
  params: { name: string; in: string; required: boolean; schema: Schema }[];
  /** Media type and schema of the request body, if any. */
  body?: { type: string; schema: Schema };
}

export function operations(doc: Doc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => ({
        name: p.name,
        in: p.in,
        required: !!p.required,
        schema: resolve(doc, p.schema),
      }));
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content)[0];
      out.push({ method, path, op, params, body: type ? { type, schema: resolve(doc, content[type].schema) } : undefined });
    }
  }
  return out;
}

type Visit = (s: Schema, at: string, ancestors: Schema[]) => void;

/** Calls `visit` on every sub-schema with its dotted location and the schemas above it. */
export function walk(doc: Doc, s: Schema, at: string, visit: Visit, ancestors: Schema[] = []): void {
  const r = resolve(doc, s);
  if (ancestors.includes(r)) return;
  visit(r, at, ancestors);
  const below = [...ancestors, r];
  for (const [k, v] of Object.entries<Schema>(r.properties ?? {})) walk(doc, v, `${at}.${k}`, visit, below);
  if (r.items && typeof r.items === 'object') walk(doc, r.items, `${at}[]`, visit, below);
  if (r.additionalProperties && typeof r.additionalProperties === 'object') walk(doc, r.additionalProperties, `${at}{}`, visit, below);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) (r[key] ?? []).forEach((v: Schema, i: number) => walk(doc, v, `${at}|${i}`, visit, below));
}
