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

// The database is out of reach rather than refusing this statement: the postgres driver's own
// connection errors, the SQLSTATEs a server sends while it shuts down, starts up or drops the
// session (57P01-57P03, class 08) or has no connection slot left (53300), and node's socket errors
// when they failed a query (the driver gives every error it rejects a query with a `query` field;
// the same codes from an HTTP client are another part's failure, not the database's).
const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', '57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const CAUSE_DEPTH = 8;

/**
 * True when `err`, or an error it wraps (drizzle's `cause`, node's AggregateError of one attempt
 * per address), says the connection to PostgreSQL failed or could not be made: the same
 * statement may succeed once the server is back. A statement the server refused is not one.
 */
export function isConnectionFailure(err: unknown, depth = 0, ofQuery = false): boolean {
  if (typeof err !== 'object' || err === null || depth > CAUSE_DEPTH) return false;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const fromQuery = ofQuery || 'query' in e;
  if (typeof e.code === 'string') {
    if (DRIVER_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return true;
    if (fromQuery && SOCKET_CODES.has(e.code)) return true;
  }
  if (Array.isArray(e.errors) && e.errors.some((inner) => isConnectionFailure(inner, depth + 1, fromQuery))) return true;
  return isConnectionFailure(e.cause, depth + 1, fromQuery);
}

/** The constraint (index) a PostgreSQL error names, however drizzle wrapped it. */
export function violatedConstraint(err: unknown): string | undefined {
  const e = err as { constraint_name?: string; cause?: { constraint_name?: string } };
  return e?.cause?.constraint_name ?? e?.constraint_name;
}

// What a driver error may carry into a log line: the statement and where it failed, never the
// values. Drizzle's message is "Failed query: <sql>\nparams: <values>" (and `params`), postgres.js
// errors hold `parameters`/`args` (and `detail`, `where`, `hint` quote row values, e.g. "Key
// (phone)=(+49…) already exists"), and a data exception's message (class 22) quotes its input.
const KEPT_FIELDS = ['code', 'severity', 'routine', 'schema_name', 'table_name', 'column_name', 'constraint_name', 'data_type_name', 'query'];
const PARAMS_LINE = /\nparams: [\s\S]*?(?=\n {4}at |$)/;
const LOG_DEPTH = 8;

/**
 * A copy of an error and its causes fit for a log: driver errors keep the statement, the SQLSTATE
 * and the constraint; every message loses drizzle's params line; a message that may quote a value
 * is replaced by its SQLSTATE. Anything else is copied as it is.
 */
export function errorWithoutValues(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > LOG_DEPTH) return err;
  const source = err as Error & Record<string, unknown>;
  const code = typeof source['code'] === 'string' ? source['code'] : '';
  const isPostgres = source.name === 'PostgresError' || (code !== '' && 'severity' in source);
  const isDrizzle = typeof source['query'] === 'string' && 'params' in source;
  const message = isPostgres && code.startsWith('22') ? `data exception ${code}` : source.message.replace(PARAMS_LINE, '');
  const copy = new Error(message) as Error & Record<string, unknown>;
  copy.name = source.name;
  const frames = (source.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  copy.stack = [`${source.name}: ${message}`, ...frames].join('\n');
  const fields = isPostgres || isDrizzle ? KEPT_FIELDS : Object.keys(source).filter((k) => k !== 'cause');
  for (const key of fields) if (source[key] !== undefined) copy[key] = source[key];
  if (source.cause !== undefined) copy.cause = errorWithoutValues(source.cause, depth + 1);
  // Drizzle wraps the driver's error: its SQLSTATE and constraint go on the logged error itself.
  const cause = copy.cause as Record<string, unknown> | undefined;
  if (isDrizzle && cause) for (const key of KEPT_FIELDS) copy[key] ??= cause[key];
  return copy;
}
