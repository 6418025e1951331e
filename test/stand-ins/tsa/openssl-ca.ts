/**
 * Test certificate authorities made with the OpenSSL CLI (never the code under test): a root and
 * certificates it issues with the extensions a test names.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const openssl = async (args: string[], cwd: string) => (await promisify(execFile)('openssl', args, { cwd, encoding: 'buffer' })).stdout;

export interface IssuedCert {
  readonly keyFile: string;
  readonly certFile: string;
  readonly pem: string;
}

/** A self-signed root (CA:TRUE, keyCertSign) named `name` in `dir`. */
export async function makeRoot(dir: string, name: string): Promise<IssuedCert> {
  await openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '3', '-subj', `/CN=${name}/O=Test`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    dir,
  );
  return { keyFile: join(dir, `${name}.key`), certFile: join(dir, `${name}.pem`), pem: await readFile(join(dir, `${name}.pem`), 'utf8') };
}

/** A leaf `name` issued by `ca` carrying `extensions` (openssl x509v3 config lines). */
export async function issue(dir: string, ca: IssuedCert, name: string, extensions: string[]): Promise<IssuedCert> {
  await writeFile(join(dir, `${name}.ext`), `${['basicConstraints=critical,CA:FALSE', 'subjectKeyIdentifier=hash', 'authorityKeyIdentifier=keyid', ...extensions].join('\n')}\n`);
  await openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}/O=Test`], dir);
  await openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', ca.certFile, '-CAkey', ca.keyFile, '-CAcreateserial', '-out', `${name}.pem`, '-days', '3', '-extfile', `${name}.ext`],
    dir,
  );
  return { keyFile: join(dir, `${name}.key`), certFile: join(dir, `${name}.pem`), pem: await readFile(join(dir, `${name}.pem`), 'utf8') };
}
