import { describe, expect, it } from '@jest/globals';
import { StoreError } from '../store/types';
import { matchesLabels, parseLabelSelector } from './labelSelector';

describe('label selectors', () => {
  it.each([
    ['app=web', { app: 'web' }, true],
    ['app==web', { app: 'web' }, true],
    ['app=web', { app: 'db' }, false],
    ['app!=web', {}, true],
    ['app!=web', { app: 'web' }, false],
    ['env in (prod, staging)', { env: 'staging' }, true],
    ['env in (prod)', {}, false],
    ['env notin (prod)', {}, true],
    ['env notin (prod)', { env: 'prod' }, false],
    ['tier', { tier: '' }, true],
    ['tier', {}, false],
    ['!tier', {}, true],
    ['!tier', { tier: 'x' }, false],
    [
      'app=web,!canary,example.com/team in (a,b)',
      { app: 'web', 'example.com/team': 'b' },
      true,
    ],
    ['app=web,!canary', { app: 'web', canary: 'true' }, false],
    ['replicas>2', { replicas: '3' }, true],
    ['replicas<2', { replicas: '3' }, false],
    ['app=', { app: '' }, true],
    ['', { any: 'thing' }, true],
  ])('%j on %j is %s', (selector, labels, expected) => {
    expect(matchesLabels(parseLabelSelector(selector), labels)).toBe(expected);
  });

  it.each([
    'app in web',
    'in (a)',
    'app in ()',
    'app=a=b',
    'app=(x)',
    'a b',
    'x>y',
    'bad key!=1',
    '-bad=1',
  ])('rejects %j with a 400 "unable to parse requirement"', selector => {
    let err: unknown;
    try {
      parseLabelSelector(selector);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe(400);
    expect((err as StoreError).message).toMatch(
      /^unable to parse requirement: /,
    );
  });
});
