import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import type { SigningIdentity } from './cms';

/** Under the data directory: the development root and signing certificate with its key. */
export const DEV_CHAIN_DIR = 'signing-dev';
const FILE = 'chain.json';

interface Stored {
  readonly keyPkcs8Pem: string;
  /** Signing certificate first, then the root. */
  readonly certsPem: readonly string[];
}

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;
const YEAR_MS = 365 * 24 * 3600 * 1000;
const serial = () => randomBytes(16).toString('hex').replace(/^[89a-f]/, '1');

async function generate(): Promise<Stored> {
  const crypto = webcrypto as unknown as Crypto;
  const rootKeys = (await crypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const leafKeys = (await crypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const root = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: 'CN=Development Seal Root (not for production), O=Tenant Capability Platform',
      notBefore,
      notAfter: new Date(notBefore.getTime() + 10 * YEAR_MS),
      keys: rootKeys,
      signingAlgorithm: RSA,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const leaf = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serial(),
      issuer: root.subject,
      subject: 'CN=Development Document Seal (not for production), O=Tenant Capability Platform',
      notBefore,
      notAfter: new Date(notBefore.getTime() + 5 * YEAR_MS),
      publicKey: leafKeys.publicKey,
      signingKey: rootKeys.privateKey,
      signingAlgorithm: RSA,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
        await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey, false, crypto),
        await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
  return {
    keyPkcs8Pem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`,
    certsPem: [leaf.toString('pem'), root.toString('pem')],
  };
}

/**
 * The development signing identity under `<dataDir>/signing-dev/`, generated on first use and kept
 * (owner-only, written whole then renamed) so every seal of a dev machine chains to one root that
 * a developer can import into a validator (`root.pem` beside it). Two processes starting at once
 * both generate, but only the first file is linked into place and both read that one.
 */
export async function loadOrCreateDevChain(dataDir: string): Promise<{ identity: SigningIdentity; file: string; generated: boolean }> {
  const dir = join(dataDir, DEV_CHAIN_DIR);
  const file = join(dir, FILE);
  let generated = false;
  const read = async () => JSON.parse(await readFile(file, 'utf8')) as Stored;
  let stored: Stored;
  try {
    stored = await read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const fresh = await generate();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600 });
    try {
      await link(tmp, file);
      generated = true;
      await writeFile(join(dir, 'root.pem'), fresh.certsPem[fresh.certsPem.length - 1]!);
    } catch (linkErr) {
      if ((linkErr as NodeJS.ErrnoException).code !== 'EEXIST') throw linkErr;
    } finally {
      await unlink(tmp);
    }
    stored = await read();
  }
  const identity: SigningIdentity = {
    key: createPrivateKey(stored.keyPkcs8Pem),
    chain: stored.certsPem.map((pem) => new Uint8Array(new x509.X509Certificate(pem).rawData)),
  };
  return { identity, file, generated };
}
