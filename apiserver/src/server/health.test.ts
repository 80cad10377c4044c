import { describe, expect, it } from '@jest/globals';
import { healthChecks, renderHealth } from './health';

const ready = { ready: true, checks: [{ name: 'informers', ok: true }] };
const q = (s: string) => new URLSearchParams(s);

describe('health', () => {
  it('answers ok, or every line with ?verbose', () => {
    const checks = healthChecks('readyz', () => ready, false);
    expect(renderHealth('readyz', checks, q(''))).toMatchObject({ code: 200, body: 'ok' });
    expect(renderHealth('readyz', checks, q('verbose')).body).toBe(
      '[+]ping ok\n[+]informers ok\n[+]shutdown ok\nreadyz check passed\n',
    );
  });

  it('fails with the reason withheld', () => {
    const checks = healthChecks('readyz', () => ({ ready: false, checks: [{ name: 'informers', ok: false, message: 'mariadb not synced' }] }), false);
    const r = renderHealth('readyz', checks, q(''));
    expect(r.code).toBe(500);
    expect(r.body).toBe('[+]ping ok\n[-]informers failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n');
    expect(r.failed.map(c => c.message)).toEqual(['mariadb not synced']);
  });

  it('says why with ?verbose when the check has a reason safe to show', () => {
    const failing = { name: 'informers', ok: false, message: 'dial tcp 10.0.0.1:443: refused', reason: '2 of 9 watches failing' };
    const checks = healthChecks('readyz', () => ({ ready: false, checks: [failing] }), false);
    expect(renderHealth('readyz', checks, q('verbose')).body).toContain('[-]informers failed: 2 of 9 watches failing\n');
    expect(renderHealth('readyz', checks, q('')).body).toContain('[-]informers failed: reason withheld\n');
    expect(renderHealth('readyz', checks, q('verbose')).body).not.toContain('10.0.0.1');
  });

  it('fails when not ready even without a failing named check', () => {
    const r = renderHealth('readyz', healthChecks('readyz', () => ({ ready: false, checks: [] }), false), q(''));
    expect(r.code).toBe(500);
  });

  it('fails readyz, not livez, once shutting down', () => {
    expect(renderHealth('readyz', healthChecks('readyz', () => ready, true), q('')).body).toContain('[-]shutdown failed');
    expect(renderHealth('livez', healthChecks('livez', () => ready, true), q('')).code).toBe(200);
  });

  it('excludes checks and warns about unknown names', () => {
    const checks = healthChecks('readyz', () => ({ ready: true, checks: [{ name: 'informers', ok: false }] }), false);
    const r = renderHealth('readyz', checks, q('verbose&exclude=informers&exclude=nope'));
    expect(r.code).toBe(200);
    expect(r.body).toContain('[+]informers excluded: ok\n');
    expect(r.body).toContain('warn: some health checks cannot be excluded: no matches for "nope"\n');
  });
});
