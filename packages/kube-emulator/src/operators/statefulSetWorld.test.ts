import { describe, expect, it } from '@jest/globals';
import {
  applyDesired,
  computeStage,
  limitsFor,
  setSettled,
  stepSet,
} from './statefulSetWorld';
import type { StatefulSetState } from './types';

const run = (
  s: StatefulSetState,
  rounds: number,
  limits = { maxReady: Number.MAX_SAFE_INTEGER, holdUpdate: false },
) => {
  const trace = [s];
  for (let i = 0; i < rounds; i++)
    trace.push(stepSet(trace[trace.length - 1], limits));
  return trace;
};

/** Three pods, all ready, at the current revision. */
const settled: StatefulSetState = {
  name: 'x',
  replicas: 3,
  pods: 3,
  ready: 3,
  updated: 3,
  revision: 'a',
  currentRevision: 'a',
};

describe('stepSet', () => {
  it('brings up a new set one pod per round, each ready the round after it was created', () => {
    const trace = run(
      applyDesired(undefined, { name: 'x', replicas: 3, revision: 'a' }),
      5,
    );
    expect(trace.map(s => [s.pods, s.ready, s.starting ?? false])).toEqual([
      [0, 0, false],
      [1, 0, true],
      [2, 1, true],
      [3, 2, true],
      [3, 3, false],
      [3, 3, false],
    ]);
    expect(setSettled(trace[3])).toBe(false);
    expect(setSettled(trace[4])).toBe(true);
  });

  it('a scale-up\'s new pod is not ready the round it is created', () => {
    const trace = run(applyDesired(settled, { name: 'x', replicas: 4, revision: 'a' }), 2);
    expect(trace.map(s => [s.pods, s.ready, s.rollingOut ?? false])).toEqual([
      [3, 3, true],
      [4, 3, true],
      [4, 4, false],
    ]);
  });

  it('rolls a new revision one pod at a time, with one pod not ready meanwhile', () => {
    const trace = run(
      applyDesired(settled, { name: 'x', replicas: 3, revision: 'b' }),
      4,
    );
    expect(trace.map(s => [s.updated, s.ready, s.currentRevision])).toEqual([
      [0, 3, 'a'],
      [1, 2, 'a'],
      [2, 2, 'a'],
      [3, 2, 'a'],
      [3, 3, 'b'],
    ]);
  });

  it('scales down one pod per round', () => {
    const trace = run(
      applyDesired(settled, { name: 'x', replicas: 1, revision: 'a' }),
      2,
    );
    expect(trace.map(s => [s.pods, s.ready])).toEqual([
      [3, 3],
      [2, 2],
      [1, 1],
    ]);
  });

  it.each([
    ['degraded (last set)', 'degraded', 0, 1, 2],
    ['degraded (not the last set)', 'degraded', 0, 2, 3],
    ['failed', 'failed', 0, 1, 0],
    ['provisioning', 'provisioning', 0, 1, 2],
  ] as const)(
    'drops ready pods at once when %s',
    (_n, mode, index, count, ready) => {
      expect(
        stepSet(settled, limitsFor(mode, settled, index, count)).ready,
      ).toBe(ready);
    },
  );

  it('keeps pods when failed if the operator says so', () => {
    expect(
      stepSet(settled, limitsFor('failed', settled, 0, 1, true)).ready,
    ).toBe(3);
  });

  it('holds a rolling update while updating is forced, and finishes it once released', () => {
    const held = run(settled, 3, limitsFor('updating', settled, 0, 1)).pop()!;
    expect(held.updated).toBe(2);
    expect(held.currentRevision).not.toBe(held.revision);
    const released = run(held, 2).pop()!;
    expect(setSettled(released)).toBe(true);
  });
});

describe('computeStage', () => {
  it.each([
    ['settled', 'ready', [settled], false, 'ready'],
    [
      'never ready yet',
      'ready',
      [{ ...settled, ready: 1, pods: 1, updated: 1 }],
      false,
      'provisioning',
    ],
    [
      'scaling once ready',
      'ready',
      [{ ...settled, replicas: 5 }],
      true,
      'updating',
    ],
    [
      'rolling once ready',
      'ready',
      [{ ...settled, revision: 'b', updated: 1, ready: 2 }],
      true,
      'updating',
    ],
    [
      'a pod down once ready',
      'ready',
      [{ ...settled, ready: 2 }],
      true,
      'degraded',
    ],
    ['forced failed', 'failed', [settled], true, 'failed'],
    ['forced degraded', 'degraded', [settled], true, 'degraded'],
  ] as const)('%s → %s', (_n, mode, sets, everReady, stage) => {
    expect(computeStage(mode, [...sets], everReady)).toBe(stage);
  });
});
