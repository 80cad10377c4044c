import './reflectPolyfill';
import { webcrypto, randomBytes } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CertificateValidity, PemKeyPair } from './types';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const EC_ALGORITHM = {
  name: 'ECDSA',
  namedCurve: 'P-256',
  hash: 'SHA-256',
} as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What a certificate is for: sets the Extended Key Usage. */
export type CertificateUsage = 'client' | 'server' | 'ca';

/** Subject and SANs of a certificate to issue. */
export interface CertificateRequest extends CertificateValidity {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  usage: CertificateUsage;
}

function serialNumber(): string {
  // Positive 128-bit serial: a leading 0x01 byte keeps the DER INTEGER non-negative.
  return `01${randomBytes(15).toString('hex')}`;
}

function subjectName(
  commonName: string,
  organizations: string[] = [],
): x509.JsonName {
  // One RDN per attribute so organisations with commas (LDAP-like) survive intact.
  return [...organizations.map(o => ({ O: [o] })), { CN: [commonName] }];
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC_ALGORITHM, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
}

async function exportKeyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey(
    'pkcs8',
    key as webcrypto.CryptoKey,
  );
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function importKeyPem(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decode(pem)[0];
  return (await webcrypto.subtle.importKey('pkcs8', der, EC_ALGORITHM, true, [
    'sign',
  ])) as CryptoKey;
}

function validity(request: CertificateValidity, defaultDays: number) {
  const notBefore = request.notBefore ?? new Date(Date.now() - 5 * 60 * 1000); // tolerate clock skew
  const notAfter =
    request.notAfter ?? new Date(notBefore.getTime() + defaultDays * DAY_MS);
  return { notBefore, notAfter };
}

async function extensionsFor(
  request: CertificateRequest,
  publicKey: CryptoKey,
): Promise<x509.Extension[]> {
  const extensions: x509.Extension[] = [
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
  ];
  if (request.usage === 'ca') {
    extensions.push(
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign |
          x509.KeyUsageFlags.cRLSign |
          x509.KeyUsageFlags.digitalSignature,
        true,
      ),
    );
    return extensions;
  }
  extensions.push(
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(
      [
        request.usage === 'client'
          ? x509.ExtendedKeyUsage.clientAuth
          : x509.ExtendedKeyUsage.serverAuth,
      ],
      false,
    ),
  );
  const names: x509.JsonGeneralName[] = [
    ...(request.dnsNames ?? []).map(value => ({ type: 'dns' as const, value })),
    ...(request.ipAddresses ?? []).map(value => ({
      type: 'ip' as const,
      value,
    })),
  ];
  if (names.length > 0)
    extensions.push(new x509.SubjectAlternativeNameExtension(names, false));
  return extensions;
}

/**
 * Creates a self-signed CA (EC P-256, ECDSA-SHA256, 10 years unless overridden).
 */
export async function createCertificateAuthority(
  commonName: string,
  validityOverride: CertificateValidity = {},
): Promise<PemKeyPair> {
  const keys = await generateKeys();
  const request: CertificateRequest = {
    commonName,
    usage: 'ca',
    ...validityOverride,
  };
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: subjectName(commonName),
    keys,
    signingAlgorithm: EC_ALGORITHM,
    ...validity(validityOverride, 3650),
    extensions: await extensionsFor(request, keys.publicKey),
  });
  return {
    certPem: cert.toString('pem'),
    keyPem: await exportKeyPem(keys.privateKey),
  };
}

/**
 * Issues a leaf certificate signed by `ca` (EC P-256, ECDSA-SHA256, 1 year unless overridden).
 */
export async function issueCertificate(
  ca: PemKeyPair,
  request: CertificateRequest,
): Promise<PemKeyPair> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const signingKey = await importKeyPem(ca.keyPem);
  const keys = await generateKeys();
  const extensions = await extensionsFor(request, keys.publicKey);
  extensions.push(
    await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
  );
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: subjectName(request.commonName, request.organizations),
    issuer: caCert.subjectName,
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm: EC_ALGORITHM,
    ...validity(request, 365),
    extensions,
  });
  return {
    certPem: cert.toString('pem'),
    keyPem: await exportKeyPem(keys.privateKey),
  };
}

/**
 * Issues a client certificate (EKU clientAuth): kube-apiserver maps CN to the user name and
 * each O to a group.
 */
export function issueClientCert(
  ca: PemKeyPair,
  commonName: string,
  organizations: string[] = [],
  validityOverride: CertificateValidity = {},
): Promise<PemKeyPair> {
  return issueCertificate(ca, {
    commonName,
    organizations,
    usage: 'client',
    ...validityOverride,
  });
}

/**
 * Issues a serving certificate (EKU serverAuth) with DNS and IP SANs; CN is the first DNS name.
 * For an extension apiserver, include `<service>.<namespace>.svc` (the name the aggregator verifies).
 */
export function issueServingCert(
  ca: PemKeyPair,
  dnsNames: string[],
  ipAddresses: string[] = [],
  validityOverride: CertificateValidity = {},
): Promise<PemKeyPair> {
  return issueCertificate(ca, {
    commonName: dnsNames[0] ?? ipAddresses[0] ?? 'localhost',
    dnsNames,
    ipAddresses,
    usage: 'server',
    ...validityOverride,
  });
}
