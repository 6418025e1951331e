/** The SQLSTATE of a PostgreSQL error, however drizzle wrapped it. */
function pgCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.cause?.code ?? e?.code;
}

export const isUniqueViolation = (err: unknown) => pgCode(err) === '23505';
export const isForeignKeyViolation = (err: unknown) => pgCode(err) === '23503';

/** A serialisation failure (40001) or a deadlock (40P01): the transaction may succeed when run again. */
export const isTransientConflict = (err: unknown) => {
  const code = pgCode(err);
  return code === '40001' || code === '40P01';
};

/** The constraint (index) a PostgreSQL error names, however drizzle wrapped it. */
export function violatedConstraint(err: unknown): string | undefined {
  const e = err as { constraint_name?: string; cause?: { constraint_name?: string } };
  return e?.cause?.constraint_name ?? e?.constraint_name;
}
