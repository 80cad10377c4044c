// Test-only helper: throw-away certificates generated at test time (never commit keys).
// tsyringe (used by @peculiar/x509) needs a Reflect metadata polyfill loaded first.
// Both come hoisted from the repo root (kube-emulator's dependency); not yet declared here.
// eslint-disable-next-line @backstage/no-undeclared-imports
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
// eslint-disable-next-line @backstage/no-undeclared-imports
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A certificate and its private key, PEM encoded. */
export interface TestKeyPair {
  cert: string;
  key: string;
  /** Only for CAs: signs further certificates. */
  sign?: { cert: x509.X509Certificate; keys: CryptoKeyPair };
}

let serial = 1;

async function keyPem(keys: CryptoKeyPair): Promise<string> {
  const der = await webcrypto.subtle.exportKey(
    'pkcs8',
    keys.privateKey as webcrypto.CryptoKey,
  );
  const b64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`;
}

/** A self-signed CA. */
export async function createTestCA(commonName: string): Promise<TestKeyPair> {
  const keys = (await webcrypto.subtle.generateKey(alg, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(2, '0'),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 24 * 3600_000),
    keys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
    ],
  });
  return {
    cert: cert.toString('pem'),
    key: await keyPem(keys),
    sign: { cert, keys },
  };
}

export interface LeafOptions {
  /** e.g. `CN=front-proxy-client` or `CN=bob, O=team`. */
  subject: string;
  /** Extended key usages; default clientAuth. Empty array: no EKU extension. */
  usages?: Array<'clientAuth' | 'serverAuth'>;
  expired?: boolean;
  /** Subject alternative IPs (for serving certificates). */
  ips?: string[];
}

/** A leaf certificate signed by `ca`. */
export async function createTestLeaf(
  ca: TestKeyPair,
  options: LeafOptions,
): Promise<TestKeyPair> {
  const keys = (await webcrypto.subtle.generateKey(alg, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const usages = options.usages ?? ['clientAuth'];
  const eku = usages.map(u =>
    u === 'clientAuth'
      ? x509.ExtendedKeyUsage.clientAuth
      : x509.ExtendedKeyUsage.serverAuth,
  );
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(2, '0'),
    subject: options.subject,
    issuer: ca.sign!.cert.subject,
    notBefore: options.expired
      ? new Date(Date.now() - 48 * 3600_000)
      : new Date(Date.now() - 60_000),
    notAfter: options.expired
      ? new Date(Date.now() - 24 * 3600_000)
      : new Date(Date.now() + 24 * 3600_000),
    signingKey: ca.sign!.keys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(eku.length ? [new x509.ExtendedKeyUsageExtension(eku, false)] : []),
      ...(options.ips?.length
        ? [
            new x509.SubjectAlternativeNameExtension(
              options.ips.map(ip => ({ type: 'ip' as const, value: ip })),
            ),
          ]
        : []),
    ],
  });
  return { cert: cert.toString('pem'), key: await keyPem(keys) };
}
