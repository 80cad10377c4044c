import type { ServerResponse } from 'node:http';

/** One named readiness check. */
export interface HealthCheck {
  name: string;
  ok: boolean;
  /** Details for the log (may name hosts and errors); never sent to the unauthenticated prober. */
  message?: string;
  /**
   * Why a failing check fails, in words safe for anyone who can reach the port (no hosts, no
   * error texts): shown by `?verbose` instead of "reason withheld", so `/readyz?verbose` says why.
   */
  reason?: string;
}

/** What the process reports for `/readyz`. */
export interface Readiness {
  ready: boolean;
  checks: HealthCheck[];
}

/** Exact paths answered without authentication or authorization (kubelet probes). */
export const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);

const PLAIN = {
  'Content-Type': 'text/plain; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache, private',
};

/**
 * Renders a health endpoint the way k8s.io/apiserver's healthz does: `ok`, or with `?verbose` one
 * `[+]name ok` line per check and `<name> check passed`; on failure 500 with every line,
 * `[-]name failed: reason withheld` (details go to the log only) and `<name> check failed`.
 * With `?verbose` a failing check that has a safe `reason` shows it instead of "reason withheld".
 * `?exclude=name` skips a check; unknown names add a `warn:` line.
 */
export function renderHealth(
  endpoint: 'healthz' | 'livez' | 'readyz',
  checks: HealthCheck[],
  query: URLSearchParams,
): { code: number; body: string; failed: HealthCheck[] } {
  const excluded = new Set(query.getAll('exclude'));
  const lines: string[] = [];
  const failed: HealthCheck[] = [];
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      lines.push(`[+]${c.name} excluded: ok`);
    } else if (c.ok) {
      // A passing check may still carry a warning (e.g. a bad policy update, last good kept).
      lines.push(c.message ? `[+]${c.name} ok (warning: ${c.message})` : `[+]${c.name} ok`);
    } else {
      const shown = c.reason && query.has('verbose') ? c.reason : 'reason withheld';
      lines.push(`[-]${c.name} failed: ${shown}`);
      failed.push(c);
    }
  }
  if (excluded.size) {
    lines.push(
      `warn: some health checks cannot be excluded: no matches for ${[...excluded]
        .sort()
        .map(n => `"${n}"`)
        .join(', ')}`,
    );
  }
  if (failed.length) return { code: 500, body: `${lines.join('\n')}\n${endpoint} check failed\n`, failed };
  if (!query.has('verbose')) return { code: 200, body: 'ok', failed };
  return { code: 200, body: `${lines.join('\n')}\n${endpoint} check passed\n`, failed };
}

/** Checks of an endpoint: `ping` always; readyz adds the readiness checks and `shutdown`. */
export function healthChecks(
  endpoint: 'healthz' | 'livez' | 'readyz',
  readiness: () => Readiness,
  shuttingDown: boolean,
): HealthCheck[] {
  const checks: HealthCheck[] = [{ name: 'ping', ok: true }];
  if (endpoint !== 'readyz') return checks;
  const r = readiness();
  checks.push(...r.checks);
  // not ready without a failing named check still has to show up as a failure
  if (!r.ready && r.checks.every(c => c.ok)) {
    checks.push({ name: 'ready', ok: false, message: 'not ready' });
  }
  checks.push({ name: 'shutdown', ok: !shuttingDown, message: shuttingDown ? 'server is shutting down' : undefined });
  return checks;
}

/** Writes a health response (plain text, as probes and humans expect). */
export function sendHealth(res: ServerResponse, result: { code: number; body: string }) {
  res.writeHead(result.code, { ...PLAIN, 'Content-Length': Buffer.byteLength(result.body) });
  res.end(result.body);
}
