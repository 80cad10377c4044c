import { describe, expect, it } from '@jest/globals';
import { chooseTarget, TARGET_ENV } from './chooseTarget';

describe('chooseTarget', () => {
  it.each([
    { env: {}, expected: { kind: 'emulator' } },
    {
      env: { [TARGET_ENV]: 'emulator', KUBECONFIG: '/k' },
      expected: { kind: 'emulator' },
    },
    { env: { KUBECONFIG: '/k' }, expected: { kind: 'emulator' } },
    {
      env: { [TARGET_ENV]: 'kubeconfig', KUBECONFIG: '/home/me/.kube/config' },
      expected: { kind: 'kubeconfig', kubeconfig: '/home/me/.kube/config' },
    },
  ])('$env → $expected.kind', ({ env, expected }) => {
    expect(chooseTarget(env)).toEqual(expected);
  });

  it.each([{ KUBECONFIG: undefined }, { KUBECONFIG: '  ' }])(
    'asks for KUBECONFIG when the cluster target has none (%p)',
    extra => {
      const choice = chooseTarget({ [TARGET_ENV]: 'kubeconfig', ...extra });
      expect(choice.kind).toBe('skip');
      expect(choice.kind === 'skip' && choice.reason).toMatch(
        /KUBECONFIG is not set/,
      );
    },
  );

  it('refuses an unknown target instead of guessing', () => {
    expect(() => chooseTarget({ [TARGET_ENV]: 'prod' })).toThrow(
      /"emulator" \(default\) or "kubeconfig"/,
    );
  });
});
