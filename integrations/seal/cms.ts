import { createHash, sign, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
} as const;

/** The organisation's key and its chain, signing certificate first (DER). */
export interface SigningIdentity {
  readonly key: KeyObject;
  readonly chain: readonly Uint8Array[];
}

/** Asks a timestamp authority for a token over `signature`; answers the token's DER ContentInfo. */
export type Timestamper = (signature: Uint8Array) => Promise<Uint8Array>;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();
const algorithm = (id: string, withNull: boolean) =>
  new pkijs.AlgorithmIdentifier({ algorithmId: id, ...(withNull ? { algorithmParams: new asn1js.Null() } : {}) });

/** ESS signingCertificateV2 (RFC 5035): the SHA-256 of the signing certificate (the default algorithm, so omitted) and its issuerSerial. */
function signingCertificateV2(cert: pkijs.Certificate, der: Uint8Array): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [cert.issuer.toSchema()] })] }),
      cert.serialNumber,
    ],
  });
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(der) }), issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/**
 * CAdES-detached SignedData over `contentDigest` (SHA-256 of the PDF's signed byte ranges): SHA-256
 * with RSA PKCS#1 v1.5, signed attributes contentType, messageDigest and signingCertificateV2 (no
 * signing-time: PAdES baseline forbids it), and the RFC 3161 token over the signature value as
 * the unsigned attribute id-aa-timeStampToken. Answers the DER ContentInfo.
 */
export async function buildCms(contentDigest: Uint8Array, identity: SigningIdentity, timestamp: Timestamper): Promise<Uint8Array> {
  const certificates = identity.chain.map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)));
  const signer = certificates[0]!;
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: contentDigest })] }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(signer, identity.chain[0]!)] }),
  ];
  // DER sorts a SET OF by encoding; verifiers re-encode the attributes before checking the signature.
  attributes.sort((a, b) => Buffer.compare(Buffer.from(a.toSchema().toBER()), Buffer.from(b.toSchema().toBER())));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes });
  const toSign = Buffer.from(signedAttrs.toSchema().toBER());
  toSign[0] = 0x31; // signed over as an explicit SET, stored as [0] IMPLICIT
  const signature = sign('sha256', toSign, identity.key);

  const token = asn1js.fromBER(await timestamp(signature));
  if (token.offset === -1) throw new Error('the timestamp token is not DER');

  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
    digestAlgorithm: algorithm(OID.sha256, false),
    signedAttrs,
    signatureAlgorithm: algorithm(OID.sha256WithRsa, true),
    signature: new asn1js.OctetString({ valueHex: signature }),
    unsignedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.timeStampToken, values: [token.result] })],
    }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [algorithm(OID.sha256, false)],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates,
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}
