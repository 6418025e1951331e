// Personal data of a campaign, sealed under the tenant master key (secret box). The associated
// data binds each value to its instance, signer and meaning, so a value copied into another row
// or column does not open.
import { randomBytes, createHash } from 'node:crypto';
import { AppError } from '../../domain/errors';
import { openSecret, sealSecret } from '../../domain/secret-box';
import type { Settings } from '../../domain/settings';

export type SealedPart = 'token' | 'name' | 'email' | 'typed-name' | 'field-values' | 'client' | 'copy-token';

const aad = (instanceId: string, signerId: string | null, part: SealedPart) => `sig\u0000${instanceId}\u0000${signerId ?? ''}\u0000${part}`;

export interface RecipientBox {
  seal(instanceId: string, signerId: string | null, part: SealedPart, value: string): string;
  open(instanceId: string, signerId: string | null, part: SealedPart, sealed: string): string;
}

export function recipientBox(settings: Pick<Settings, 'secrets.master-key'>): RecipientBox {
  const key = settings['secrets.master-key'];
  const need = () => {
    if (!key) throw new AppError('secrets-unavailable', 'Signing campaigns need secret storage (SECRETS_MASTER_KEY is unset)');
    return key;
  };
  return {
    seal: (instanceId, signerId, part, value) => sealSecret(need(), value, aad(instanceId, signerId, part)),
    open: (instanceId, signerId, part, sealed) => openSecret(need(), sealed, aad(instanceId, signerId, part)),
  };
}

/** A signing token: 256 random bits, base64url; only its SHA-256 is looked up. */
export const newSigningToken = () => randomBytes(32).toString('base64url');
export const hashSigningToken = (token: string) => createHash('sha256').update(token).digest('base64url');
/** Far above a real token; longer input is refused unread. */
export const MAX_SIGNING_TOKEN_LENGTH = 128;

/** The download of a sealed campaign's PDF by its copy token (public, token-authorised). */
export const signedCopyUrl = (settings: Pick<Settings, 'public.base-url'>, token: string) =>
  `${settings['public.base-url'].replace(/\/+$/, '')}/api/public/signed-copy/${token}`;

export const signingUrl = (settings: Pick<Settings, 'public.base-url'>, token: string) => `${settings['public.base-url'].replace(/\/+$/, '')}/sign/${token}`;
