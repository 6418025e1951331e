/**
 * Who sent a public request, as audit trails record it (signing ceremonies): the client address,
 * its user agent, an offline classification of the address and a coarse location. Null where
 * unknown; never used to decide access.
 */
export interface ClientContext {
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** loopback, private, reserved, public, ... (offline classification). */
  readonly ipRisk: string | null;
  /** Country code, or country/region, from an offline database or gateway headers. */
  readonly geo: string | null;
}
