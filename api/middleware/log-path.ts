import { UNMATCHED_ROUTE } from '../../integrations/metrics/http';

const REDACTED = '[redacted]';
/** A segment shaped like a bearer token (links carry 32 random bytes, 43 base64url characters). */
const TOKEN_SHAPED = /^[A-Za-z0-9_-]{40,}$/;

/**
 * The request path as the request log line may write it. Signing, respond, embed and invitation
 * links carry their bearer token in the path, and whoever holds a link's token can act as its
 * recipient, so a path segment is redacted where the route that answered names it `:token`; on a
 * path no route matched (a mistyped link still holds a real token), every token-shaped segment is.
 */
export function pathForLog(path: string, route: string): string {
  const template = route === UNMATCHED_ROUTE ? undefined : route.split('/');
  if (template && !route.includes(':token')) return path;
  return path
    .split('/')
    .map((segment, i) => {
      const secret = template ? /^:token\b/.test(template[i] ?? '') : TOKEN_SHAPED.test(segment);
      return secret ? REDACTED : segment;
    })
    .join('/');
}
