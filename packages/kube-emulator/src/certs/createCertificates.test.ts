import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  X509Certificate,
  createPrivateKey,
  createPublicKey,
} from 'node:crypto';
import { spawnSync } from 'node:child_process';
import './reflectPolyfill';
import * as x509 from '@peculiar/x509';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createCertificates,
  EmulatorCertificateSet,
} from './createCertificates';
import { issueServingCert } from './issueCertificate';
import { writeCertificates } from './writeCertificates';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

function ekus(cert: X509Certificate): string[] {
  // Node 20 exposes the EKU OIDs as `keyUsage`; newer versions add `extKeyUsage`.
  const c = cert as X509Certificate & { extKeyUsage?: string[] };
  return c.extKeyUsage ?? c.keyUsage ?? [];
}

describe('createCertificates', () => {
  let certs: EmulatorCertificateSet;
  beforeAll(async () => {
    certs = await createCertificates();
  });

  const chains: Array<
    [string, keyof EmulatorCertificateSet, keyof EmulatorCertificateSet, string]
  > = [
    ['serving', 'serving', 'clusterCa', SERVER_AUTH],
    ['admin client', 'admin', 'clientCa', CLIENT_AUTH],
    ['front-proxy client', 'frontProxyClient', 'frontProxyCa', CLIENT_AUTH],
  ];

  it.each(chains)(
    '%s certificate chains to its CA with the right EKU',
    (_, leafKey, caKey, eku) => {
      const leaf = new X509Certificate(
        (certs[leafKey] as unknown as { certPem: string }).certPem,
      );
      const ca = new X509Certificate(
        (certs[caKey] as unknown as { certPem: string }).certPem,
      );
      expect(ca.ca).toBe(true);
      expect(leaf.ca).toBe(false);
      expect(ca.verify(ca.publicKey)).toBe(true);
      expect(leaf.checkIssued(ca)).toBe(true);
      expect(leaf.verify(ca.publicKey)).toBe(true);
      expect(ekus(leaf)).toEqual([eku]);
      // the private key matches the certificate
      const keyPem = (certs[leafKey] as unknown as { keyPem: string }).keyPem;
      expect(
        createPublicKey(createPrivateKey(keyPem)).export({ format: 'jwk' }),
      ).toEqual(leaf.publicKey.export({ format: 'jwk' }));
    },
  );

  it('keeps the three CAs separate', () => {
    const front = new X509Certificate(certs.frontProxyClient.certPem);
    const admin = new X509Certificate(certs.admin.certPem);
    expect(
      front.verify(new X509Certificate(certs.clientCa.certPem).publicKey),
    ).toBe(false);
    expect(
      admin.verify(new X509Certificate(certs.frontProxyCa.certPem).publicKey),
    ).toBe(false);
    expect(
      new Set([
        certs.clusterCa.certPem,
        certs.clientCa.certPem,
        certs.frontProxyCa.certPem,
      ]).size,
    ).toBe(3);
  });

  it('names admin and front-proxy as kube-apiserver expects', () => {
    const admin = new X509Certificate(certs.admin.certPem);
    expect(admin.subject.split('\n')).toEqual(
      expect.arrayContaining(['CN=admin', 'O=system:masters']),
    );
    expect(
      new X509Certificate(certs.frontProxyClient.certPem).subject,
    ).toContain('CN=front-proxy-client');
  });

  it('serving certificate has loopback and in-cluster SANs and signs with SHA-256', () => {
    const serving = new X509Certificate(certs.serving.certPem);
    expect(serving.checkHost('localhost')).toBe('localhost');
    expect(serving.checkHost('kubernetes.default.svc')).toBe(
      'kubernetes.default.svc',
    );
    expect(serving.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(serving.checkIP('::1')).toBe('::1');
    expect(serving.checkHost('example.com')).toBeUndefined();
    expect(
      new x509.X509Certificate(certs.serving.certPem).signatureAlgorithm,
    ).toMatchObject({
      name: 'ECDSA',
      hash: { name: 'SHA-256' },
    });
  });

  it('issueClientCert issues user certificates from the client CA', async () => {
    const alice = await certs.issueClientCert('alice', [
      'team-a',
      'o=with,comma',
    ]);
    const cert = new X509Certificate(alice.certPem);
    expect(
      cert.verify(new X509Certificate(certs.clientCa.certPem).publicKey),
    ).toBe(true);
    expect(cert.subject).toContain('CN=alice');
    expect(ekus(cert)).toEqual([CLIENT_AUTH]);
  });

  it('issueServingCert makes an extension apiserver certificate', async () => {
    const ext = await issueServingCert(
      certs.clusterCa,
      ['api.dbaas-system.svc', 'localhost'],
      ['127.0.0.1'],
    );
    const cert = new X509Certificate(ext.certPem);
    expect(cert.checkHost('api.dbaas-system.svc')).toBe('api.dbaas-system.svc');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(ekus(cert)).toEqual([SERVER_AUTH]);
    expect(cert.checkIssued(new X509Certificate(certs.clusterCa.certPem))).toBe(
      true,
    );
  });

  const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
  (hasOpenssl ? describe : describe.skip)(
    `openssl cross-check${hasOpenssl ? '' : ' [skipped: no openssl binary on this machine]'}`,
    () => {
      it('openssl verify accepts the chains with the right purpose (as Go would)', async () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'kube-emulator-certs-'));
        try {
          const files = await writeCertificates(dir, certs);
          expect(statSync(files.admin.keyFile).mode & 0o777).toBe(0o600);
          const verify = (ca: string, cert: string, purpose: string) =>
            spawnSync('openssl', [
              'verify',
              '-purpose',
              purpose,
              '-CAfile',
              ca,
              cert,
            ]).status;
          expect(
            verify(
              files.clusterCa.certFile,
              files.serving.certFile,
              'sslserver',
            ),
          ).toBe(0);
          expect(
            verify(files.clientCa.certFile, files.admin.certFile, 'sslclient'),
          ).toBe(0);
          expect(
            verify(
              files.frontProxyCa.certFile,
              files.frontProxyClient.certFile,
              'sslclient',
            ),
          ).toBe(0);
          // wrong purpose and wrong CA are refused, so the checks above can fail
          expect(
            verify(files.clientCa.certFile, files.admin.certFile, 'sslserver'),
          ).not.toBe(0);
          expect(
            verify(
              files.clientCa.certFile,
              files.frontProxyClient.certFile,
              'sslclient',
            ),
          ).not.toBe(0);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    },
  );
});
