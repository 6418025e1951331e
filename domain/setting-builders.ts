// The value builders the settings tables share (domain/settings.ts and the per-capability tables it
// spreads in): a setting's schema reads the raw string an operator writes.
import { z } from 'zod';
import { isAddressRange } from './net/address-ranges';

export interface SettingDef<T> {
  readonly schema: z.ZodType<T>;
  /** Default as the raw string an operator would write; undefined means "unset". */
  readonly default: string | undefined;
  readonly description: string;
  /** Never logged or echoed, even in start-up errors. */
  readonly secret?: boolean;
}

export const def = <T>(
  schema: z.ZodType<T>,
  dflt: string | undefined,
  description: string,
  secret = false,
): SettingDef<T> => ({ schema, default: dflt, description, secret });

export const bool = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
export const url = z.string().trim().url();
export const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional());
export const text = z.string();
export const optionalText = z
  .string()
  .transform((v) => (v.trim() === '' ? undefined : v))
  .optional();
export const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);
export const urlList = list.refine((entries) => entries.every((e) => z.string().url().safeParse(e).success), {
  message: 'each entry must be an absolute URL (http://tsa.example.com/tsr)',
});
export const addressRangeList = list.refine((entries) => entries.every(isAddressRange), {
  message: 'each entry must be an IP address or a CIDR block (10.0.0.0/8, 2001:db8::/32)',
});
export const masterKey = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(
    z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
      .transform((v) => Buffer.from(v, 'base64'))
      .optional(),
  );
