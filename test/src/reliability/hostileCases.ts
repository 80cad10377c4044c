import fc from 'fast-check';
import type { ProbeAnswer, ProbeRequest } from './hostileApiClient';
import { HOSTILE_RUNS, type Caller, type HostileHarness } from './hostileHarness';

type Send = (caller: Caller, probe: ProbeRequest) => Promise<ProbeAnswer>;

/**
 * Runs HOSTILE_RUNS cases of `arb` through `property`, which sends with the `send` it is given
 * (the harness's, counting the status codes) and throws on a wrong answer; logs the time per case
 * and the codes, and returns how often each code came.
 */
export async function runHostileCases<T>(
  h: Pick<HostileHarness, 'send'>,
  family: string,
  arb: fc.Arbitrary<T>,
  property: (c: T, send: Send) => Promise<void>,
): Promise<Map<number, number>> {
  const started = process.hrtime.bigint();
  const codes = new Map<number, number>();
  const send: Send = async (caller, probe) => {
    const answer = await h.send(caller, probe);
    codes.set(answer.status, (codes.get(answer.status) ?? 0) + 1);
    return answer;
  };
  await fc.assert(fc.asyncProperty(arb, c => property(c, send)), { numRuns: HOSTILE_RUNS });
  const perCase = Number(process.hrtime.bigint() - started) / 1e6 / HOSTILE_RUNS;
  console.log(`${family}: ${HOSTILE_RUNS} cases, ${perCase.toFixed(2)} ms/case, codes ${JSON.stringify(Object.fromEntries(codes))}`);
  return codes;
}

/** What the health check answers (after a run of hostile cases it must still be 200 `ok`). */
export async function healthz(h: Pick<HostileHarness, 'send'>): Promise<{ status: number; body: string }> {
  const health = await h.send('anonymous', { method: 'GET', path: '/healthz' });
  return { status: health.status, body: health.body };
}
