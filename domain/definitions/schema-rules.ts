// What a capability plugs into the definition lifecycle about its schemas. Forms validate on save
// (problems answered, errors block check-in); signatures repair malformed stored drafts on read.
// Both hooks exist for both: the lifecycle calls `check` before a draft becomes a version (and
// again at sign-off and publish, since rules may have tightened since), `repair` on every read.

export interface SchemaProblem {
  /** Where in the schema, dotted (`fields.0.key`); '' for the whole schema. */
  path: string;
  level: 'error' | 'warning';
  message: string;
}

export interface SchemaRules {
  /** Every problem of a draft; error-level ones block check-in, sign-off and publish. */
  check(draft: unknown): SchemaProblem[];
  /** A usable schema from whatever is stored (unknown or partial JSON is coerced). */
  repair(raw: unknown): unknown;
  /** The JSON Schema of a (repaired) schema, for consumers validating submissions themselves. */
  jsonSchema(schema: unknown): object;
  /**
   * The draft a save stores, given the stored one: parts the platform wrote into the draft (not the
   * editor) are kept when the saved draft leaves them out. Absent: the saved draft as sent.
   */
  carryOver?(stored: unknown, saved: unknown): unknown;
}

export const hasErrors = (problems: readonly SchemaProblem[]) => problems.some((p) => p.level === 'error');
