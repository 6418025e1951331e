/**
 * A local identity provider's key set over HTTP, as oauth2-proxy's IdP, Pomerium or Cloudflare
 * Access publish theirs: `GET /.well-known/jwks.json` answers `{ keys: [...] }` with the public
 * JWKs it holds. Tests add, rotate and remove keys, make it answer badly (`behave`: 500, a body
 * that is not a key set, or no answer at all) or take it down (`down`: the port refuses
 * connections) and bring it back on the same port (`up`). It counts the key set fetches it served,
 * so a test sees whether the verifier asked again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export const JWKS_PATH = '/.well-known/jwks.json';

export type SigningAlgorithm = 'RS256' | 'PS256' | 'ES256' | 'EdDSA';
export type JwksBehaviour = 'ok' | 'error' | 'garbage' | 'hang';

export interface HeldKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface JwksStandIn {
  readonly url: string;
  /** `iss` of this provider's assertions (its base URL, as real providers use). */
  readonly issuer: string;
  /** Generates a key pair, publishes its public half and returns it. */
  addKey(alg?: SigningAlgorithm, kid?: string): Promise<HeldKey>;
  /** Stops publishing a key (its tokens stop verifying once a verifier fetches the set again). */
  removeKey(kid: string): void;
  key(kid: string): HeldKey;
  /** Key set answers served so far (successful or not). */
  fetches(): number;
  behave(behaviour: JwksBehaviour): void;
  /** The port refuses connections until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

export async function startJwks(): Promise<JwksStandIn> {
  const keys = new Map<string, HeldKey>();
  let behaviour: JwksBehaviour = 'ok';
  let served = 0;
  let counter = 0;
  const sockets = new Set<Socket>();

  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    if (req.method !== 'GET' || req.url !== JWKS_PATH) {
      res.writeHead(404).end();
      return;
    }
    served += 1;
    if (behaviour === 'hang') return; // never answers; the caller's timeout ends it
    if (behaviour === 'error') {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end('internal error');
      return;
    }
    const body = behaviour === 'garbage' ? '<html>not a key set</html>' : JSON.stringify({ keys: [...keys.values()].map((k) => k.publicJwk) });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=300' }).end(body);
  };

  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer(handler);
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  const port = await listen(0);
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}${JWKS_PATH}`,
    issuer: base,
    async addKey(alg = 'RS256', kid = `key-${++counter}`) {
      const pair = await generateKeyPair(alg, { extractable: true });
      const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
      const held = { kid, alg, privateKey: pair.privateKey, publicJwk };
      keys.set(kid, held);
      return held;
    },
    removeKey: (kid) => void keys.delete(kid),
    key(kid) {
      const held = keys.get(kid);
      if (!held) throw new Error(`the stand-in holds no key ${kid}`);
      return held;
    },
    fetches: () => served,
    behave: (next) => void (behaviour = next),
    down: close,
    up: async () => void (await listen(port)),
    stop: close,
  };
}
