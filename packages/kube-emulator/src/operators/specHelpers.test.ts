import { describe, expect, it } from '@jest/globals';
import { count, imageTag, secretsByName } from './specHelpers';

describe('imageTag', () => {
  it.each([
    ['mariadb:11.4.2', '11.4.2'],
    ['docker-registry1.mariadb.com/library/mariadb:11.8.8', '11.8.8'],
    ['localhost:5000/redis', undefined],
    ['quay.io/opstree/redis:v7.0.15@sha256:abc', 'v7.0.15'],
    [undefined, undefined],
  ])('%s → %s', (image, tag) => expect(imageTag(image)).toBe(tag));
});

describe('count', () => {
  it.each([
    [3, 1, 3],
    [0, 1, 0],
    [-1, 1, 1],
    ['3', 2, 2],
    [undefined, 1, 1],
  ])('%p (default %p) → %p', (v, d, out) => expect(count(v, d)).toBe(out));
});

describe('secretsByName', () => {
  it('merges keys of one secret', () => {
    const m = secretsByName([
      { name: 'mariadb', key: 'root-password' },
      { name: 'mariadb', key: 'password' },
      { name: 'x', key: 'k' },
    ]);
    expect([...m]).toEqual([
      ['mariadb', ['root-password', 'password']],
      ['x', ['k']],
    ]);
  });
});
