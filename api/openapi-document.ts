// The served OpenAPI document, with one correction to what the generator writes.

type Json = unknown;

const isNullOnly = (s: Record<string, unknown>) =>
  Array.isArray(s.type) && s.type.includes('null') && Object.keys(s).every((k) => k === 'type' || k === 'description' || k === 'example');

/**
 * zod-to-openapi writes a nullable reference as `allOf: [{ $ref }, { type: [T, 'null'] }]`, which
 * no value `null` satisfies (allOf needs both), so clients and validators refuse the nulls the API
 * sends. Written as `anyOf: [{ $ref }, { type: 'null' }]` instead, its description kept.
 */
export function fixNullableRefs(node: Json): Json {
  if (Array.isArray(node)) return node.map(fixNullableRefs);
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  const all = o.allOf;
  if (Array.isArray(all) && all.length === 2 && typeof (all[0] as Record<string, unknown>)?.$ref === 'string' && isNullOnly(all[1] as Record<string, unknown>)) {
    const { allOf: _allOf, ...rest } = o;
    const { type: _type, ...kept } = all[1] as Record<string, unknown>;
    return { ...rest, ...kept, anyOf: [all[0], { type: 'null' }] };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fixNullableRefs(v)]));
}
