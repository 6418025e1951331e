/**
 * What sealing needs and gives back, as plain data: the ceremony's activity (services) gathers it
 * from the instance, the sealer (integrations) draws, signs and timestamps. Neither imports the
 * other; the worker hands the sealer to the activity.
 */

/** Where a recipient's field sits: PDF points, top-left origin, pages numbered from 1. */
export interface SealFieldBox {
  readonly page: number;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/**
 * One field as the seal draws it. SIGNATURE and INITIALS: an image (PNG bytes) or, when the
 * recipient typed, text the sealer renders as a mark. DATE, NAME, TEXT: text.
 */
export type SealMark = SealFieldBox &
  (
    | { readonly type: 'SIGNATURE' | 'INITIALS'; readonly png: Uint8Array }
    | { readonly type: 'SIGNATURE' | 'INITIALS'; readonly typedText: string }
    | { readonly type: 'DATE' | 'NAME' | 'TEXT'; readonly text: string }
  );

/** One line of the Certificate of Completion's audit trail. */
export interface SealAuditEvent {
  /** ISO 8601 instant. */
  readonly at: string;
  /** opened, consented, signed, sealed, cancelled, reminded, ... */
  readonly action: string;
  /** The recipient's signer role, when the event is a recipient's. */
  readonly signerId: string | null;
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** loopback, private, reserved, public, ... */
  readonly ipRisk: string | null;
  /** e.g. "DE", "US/CA", or null when unknown. */
  readonly geo: string | null;
}

export interface SealSigner {
  readonly signerId: string;
  readonly label: string;
  readonly name: string;
  readonly email: string;
  /** ISO 8601 instant. */
  readonly signedAt: string;
}

export interface SealRequest {
  readonly instanceId: string;
  /** The source PDF exactly as uploaded. */
  readonly sourcePdf: Uint8Array;
  readonly marks: readonly SealMark[];
  readonly signers: readonly SealSigner[];
  readonly events: readonly SealAuditEvent[];
  /** Shown on the Certificate of Completion: the definition's name and version. */
  readonly title: string;
}

export interface SealResult {
  readonly pdf: Uint8Array;
  /** Lowercase hex SHA-256 of the source PDF, as printed on the certificate page. */
  readonly sourceSha256: string;
  /** Milliseconds spent waiting for the timestamp authority (benchmarks report it apart). */
  readonly tsaMillis: number;
}

/** Draw, append the Certificate of Completion, sign (PAdES, RFC 3161 timestamp). Throws on failure; the activity records it. */
export type SealPdf = (request: SealRequest) => Promise<SealResult>;
