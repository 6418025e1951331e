import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { AppError } from '../../domain/errors';
import type { SigningIdentity } from './cms';

// node-forge, not pkijs: pkijs opens only PBES2 bags, and the `-legacy` files many CAs still hand
// out use the PKCS#12 PBEs (3DES keys, RC2-40 certificates, SHA-1 MAC); forge reads both kinds.

const unreadable = (why: string) => new AppError('signing-key-unreadable', `the signatures.pkcs12-base64 PKCS#12 ${why}`);

/** Orders `certs` from the one holding `key` up through its issuers (unrelated ones dropped). */
function chainFrom(leaf: X509Certificate, certs: X509Certificate[]): X509Certificate[] {
  const chain = [leaf];
  for (let cert = leaf; chain.length <= certs.length; ) {
    const issuer = certs.find((c) => !chain.includes(c) && cert.checkIssued(c) && cert.verify(c.publicKey));
    if (!issuer) break;
    chain.push(issuer);
    cert = issuer;
  }
  return chain;
}

/** The RSA key of a PKCS#12 (MAC checked) and its certificate chain, signing certificate first. */
export function loadPkcs12(der: Uint8Array, password: string): SigningIdentity {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary'))), password);
  } catch {
    throw unreadable('cannot be opened (not PKCS#12, or a wrong signatures.pkcs12-password)');
  }
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBag = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)].find((b) => b.key);
  if (!keyBag?.key) throw unreadable('holds no RSA private key');
  const key = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  const certs = bags(forge.pki.oids.certBag!)
    .filter((b) => b.cert)
    .map((b) => new X509Certificate(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(b.cert!)).getBytes(), 'binary')));
  const publicDer = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const leaf = certs.find((c) => c.publicKey.export({ type: 'spki', format: 'der' }).equals(publicDer));
  if (!leaf) throw unreadable('holds no certificate for its private key');
  return { key, chain: chainFrom(leaf, certs).map((c) => new Uint8Array(c.raw)) };
}
