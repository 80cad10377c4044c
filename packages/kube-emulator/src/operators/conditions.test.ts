import { describe, expect, it } from '@jest/globals';
import { nextConditions } from './conditions';

describe('nextConditions', () => {
  const before = [
    {
      type: 'Ready',
      status: 'False',
      reason: 'StatefulSetNotReady',
      message: 'Not ready',
      lastTransitionTime: '2024-01-01T00:00:00Z',
    },
    {
      type: 'Gone',
      status: 'True',
      reason: 'X',
      message: 'x',
      lastTransitionTime: '2024-01-01T00:00:00Z',
    },
  ];
  const now = '2024-02-02T00:00:00Z';

  it.each([
    [
      'keeps the transition time when the status is unchanged',
      'False',
      '2024-01-01T00:00:00Z',
    ],
    ['moves the transition time when the status flips', 'True', now],
  ] as const)('%s', (_n, status, expected) => {
    const [ready] = nextConditions(
      before,
      [{ type: 'Ready', status, reason: 'R', message: 'm' }],
      now,
    );
    expect(ready.lastTransitionTime).toBe(expected);
    expect(ready.reason).toBe('R');
  });

  it('drops conditions no longer wanted and stamps new ones now', () => {
    const out = nextConditions(
      before,
      [{ type: 'New', status: 'True', reason: 'Y', message: undefined }],
      now,
    );
    expect(out).toEqual([
      { type: 'New', status: 'True', reason: 'Y', lastTransitionTime: now },
    ]);
  });

  it('treats a missing previous list as empty', () => {
    expect(
      nextConditions(undefined, [{ type: 'A', status: 'True' }], now)[0]
        .lastTransitionTime,
    ).toBe(now);
  });
});
