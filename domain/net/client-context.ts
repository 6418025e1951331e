import type { IpRisk } from './ip-risk';

/**
 * Who sent a public request, as audit trails record it (signing ceremonies): the client address,
 * its user agent, an offline classification of the address and a coarse location. Null where
 * unknown; never used to decide access.
 */
export interface ClientContext {
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** loopback, private, reserved or public (domain/net/ip-risk.ts). */
  readonly ipRisk: IpRisk | null;
  /** ISO 3166-1 alpha-2 country code, from a trusted gateway's header or the offline database. */
  readonly geo: string | null;
}
