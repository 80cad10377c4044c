import { describe, expect, it } from '@jest/globals';
import { runConditions } from './toBackup';

const source = { metadata: { name: 'run', creationTimestamp: '2026-07-01T09:59:00Z' } };

describe('runConditions', () => {
  it.each([
    ['Succeeded', [{ type: 'Complete', status: 'True', reason: 'Done', message: 'ok', lastTransitionTime: '2026-07-01T10:01:00Z' }]],
    ['Failed', [{ type: 'Failed', status: 'True', reason: 'Done', message: 'ok', lastTransitionTime: '2026-07-01T10:01:00Z' }]],
    ['Running', undefined],
    ['Pending', undefined],
    ['Unknown', undefined],
  ] as const)('a %s run', (phase, expected) => {
    expect(
      runConditions({ phase, reason: 'Done', message: 'ok', startTime: '2026-07-01T10:00:00Z', completionTime: '2026-07-01T10:01:00Z', source }),
    ).toEqual(expected);
  });

  it('names the phase when the run has no reason, and dates it by what is known', () => {
    expect(runConditions({ phase: 'Failed', startTime: '2026-07-01T10:00:00Z', source })).toEqual([
      { type: 'Failed', status: 'True', reason: 'Failed', message: '', lastTransitionTime: '2026-07-01T10:00:00Z' },
    ]);
    expect(runConditions({ phase: 'Succeeded', source })?.[0].lastTransitionTime).toBe('2026-07-01T09:59:00Z');
    expect(runConditions({ phase: 'Succeeded', source: {} })?.[0]).not.toHaveProperty('lastTransitionTime');
  });
});
