import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmulatorCertificates, PemKeyPair } from './types';

/** File names, in kubeadm's layout, of each certificate written by {@link writeCertificates}. */
export const CERTIFICATE_FILES: Record<keyof EmulatorCertificates, string> = {
  clusterCa: 'ca',
  serving: 'apiserver',
  clientCa: 'client-ca',
  admin: 'admin',
  frontProxyCa: 'front-proxy-ca',
  frontProxyClient: 'front-proxy-client',
};

/** Writes `<name>.crt` (0644) and `<name>.key` (0600) into `dir`, creating it. Returns the paths. */
export async function writeKeyPair(
  dir: string,
  name: string,
  pair: PemKeyPair,
): Promise<{ certFile: string; keyFile: string }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  await writeFile(certFile, pair.certPem, { mode: 0o644 });
  await writeFile(keyFile, pair.keyPem, { mode: 0o600 });
  return { certFile, keyFile };
}

/** Writes every certificate of the set into `dir` using {@link CERTIFICATE_FILES} names. */
export async function writeCertificates(
  dir: string,
  certs: EmulatorCertificates,
): Promise<
  Record<keyof EmulatorCertificates, { certFile: string; keyFile: string }>
> {
  const entries = await Promise.all(
    (Object.keys(CERTIFICATE_FILES) as Array<keyof EmulatorCertificates>).map(
      async key =>
        [
          key,
          await writeKeyPair(dir, CERTIFICATE_FILES[key], certs[key]),
        ] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<
    keyof EmulatorCertificates,
    { certFile: string; keyFile: string }
  >;
}
