/**
 * Every failure of the provider client. Messages name the operation, the HTTP status
 * and the provider's own explanation, and never the API key, request headers or
 * request body (carrier credentials travel in bodies): they end up in logs and in
 * PhoneCall.errorMessage.
 */
export type VapiErrorKind = 'timeout' | 'network' | 'http' | 'invalid-response';

const MAX_DETAIL = 300;

export class VapiError extends Error {
  override readonly name = 'VapiError';

  constructor(
    readonly kind: VapiErrorKind,
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }

  /** Worth retrying later: the provider was slow, unreachable, rate-limiting or failing. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network') return true;
    return this.status !== undefined && (this.status === 429 || this.status >= 500);
  }
}

/** Replaces each secret with [redacted], flattens to one line and bounds the length. */
export function sanitiseDetail(detail: string, secrets: readonly string[]): string {
  let out = detail;
  for (const secret of secrets) {
    // Short strings would redact ordinary words; real keys and tokens are long.
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > MAX_DETAIL ? `${out.slice(0, MAX_DETAIL - 1)}…` : out;
}

/** The provider answers errors as `{ message: string | string[], error, statusCode }`. */
export function providerErrorDetail(bodyText: string): string {
  if (bodyText.trim() === '') return '';
  try {
    const body: unknown = JSON.parse(bodyText);
    if (typeof body === 'object' && body !== null) {
      const { message, error } = body as { message?: unknown; error?: unknown };
      if (Array.isArray(message)) return message.filter((m) => typeof m === 'string').join('; ');
      if (typeof message === 'string') return message;
      if (typeof error === 'string') return error;
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): fall through to the raw text.
  }
  return bodyText;
}
