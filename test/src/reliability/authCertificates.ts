import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A certificate and its key, PEM. */
export interface CertificatePair {
  certPem: string;
  keyPem: string;
}

const keys = () => webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
const keyPem = async (key: CryptoKey) =>
  x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey), 'PRIVATE KEY');
const serial = () => `01${randomBytes(15).toString('hex')}`;
const validity = () => ({ notBefore: new Date(Date.now() - 300_000), notAfter: new Date(Date.now() + 86_400_000) });

/** A self-signed CA no cluster component trusts (an attacker's own). */
export async function createForeignCa(commonName: string): Promise<CertificatePair> {
  const k = await keys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    keys: k,
    signingAlgorithm: ALGORITHM,
    ...validity(),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(k.privateKey) };
}

/** A client certificate (EKU clientAuth) for `commonName`, signed by `ca`. */
export async function issueClientCertificate(ca: CertificatePair, commonName: string, organizations: string[] = []): Promise<CertificatePair> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const signingKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decode(ca.keyPem)[0], ALGORITHM, true, ['sign']);
  const k = await keys();
  const subject = [...organizations.map(o => `O=${o}`), `CN=${commonName}`].join(', ');
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: caCert.subjectName,
    publicKey: k.publicKey,
    signingKey: signingKey as CryptoKey,
    signingAlgorithm: ALGORITHM,
    ...validity(),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth], false),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(k.privateKey) };
}
