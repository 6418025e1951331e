// The `auth.*` settings of a node that believes the stand-in provider.
import type { Settings } from '../../../workers/config';
import type { JwksStandIn } from './server';
import { AUDIENCE } from './tokens';

export function jwtSettings(provider: JwksStandIn, more: Partial<Settings> = {}): Partial<Settings> {
  return {
    'auth.mode': 'jwt',
    'auth.jwks-url': provider.url,
    'auth.issuer': provider.issuer,
    'auth.audience': [AUDIENCE],
    ...more,
  };
}
