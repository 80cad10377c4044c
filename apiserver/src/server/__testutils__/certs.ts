import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throw-away self-signed serving certificate for 127.0.0.1 (it is its own CA). */
export interface TestCert {
  key: string;
  cert: string;
}

let cached: TestCert | undefined;

/** Generates (once per test file) a P-256 serving cert for 127.0.0.1/localhost with openssl. */
export function testServingCert(): TestCert {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-test-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1',
        '-subj', '/CN=127.0.0.1',
        '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-addext', 'basicConstraints=critical,CA:TRUE',
      ],
      { stdio: 'ignore' },
    );
    cached = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
