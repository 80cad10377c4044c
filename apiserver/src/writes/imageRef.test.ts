import { describe, it, expect } from '@jest/globals';
import { imageAtVersion, withImageTag, withVersion } from './imageRef';

describe('withImageTag', () => {
  it.each([
    ['mariadb:10.11', '11.4', 'mariadb:11.4'],
    ['mariadb', '11.4', 'mariadb:11.4'],
    [
      'registry:5000/library/mariadb:10.11@sha256:abc',
      '11.4',
      'registry:5000/library/mariadb:11.4',
    ],
    ['registry:5000/mariadb', '11.4', 'registry:5000/mariadb:11.4'],
  ])('%s + %s → %s', (image, tag, expected) => {
    expect(withImageTag(image, tag)).toBe(expected);
  });
});

describe('withVersion', () => {
  it.each([
    [
      'quay.io/opstree/redis:v7.0.12',
      '7.0.15',
      undefined,
      'quay.io/opstree/redis:v7.0.15',
    ],
    [
      'rabbitmq:3.13.7-management',
      '4.2.6',
      undefined,
      'rabbitmq:4.2.6-management',
    ],
    [
      'bitnami/rabbitmq:3.10.7-debian-11-r8',
      '4.2.6',
      undefined,
      'bitnami/rabbitmq:4.2.6-debian-11-r8',
    ],
    ['mariadb:11.4', '11.8', undefined, 'mariadb:11.8'],
    [
      'quay.io/opstree/redis:latest',
      '7.0.15',
      'v7.0.15',
      'quay.io/opstree/redis:v7.0.15',
    ],
    ['mariadb', '11.8', undefined, 'mariadb:11.8'],
  ])('%s to %s', (image, version, unversioned, expected) => {
    expect(withVersion(image, version, unversioned)).toBe(expected);
  });
});

describe('imageAtVersion', () => {
  it.each<[string, unknown, string]>([
    // The current image moves, its registry and tag form kept.
    [
      'a versioned image',
      'mirror.example/rabbitmq:3.13.7-management',
      'mirror.example/rabbitmq:4.2.6-management',
    ],
    // A tag that names no version gets the engine's own versioned tag, suffix included.
    [
      'an unversioned tag',
      'mirror.example/rabbitmq:latest',
      'mirror.example/rabbitmq:4.2.6-management',
    ],
    // No image at all (adopted objects may rely on the operator's default): the engine's own.
    ['no image', undefined, 'rabbitmq:4.2.6-management'],
    ['an empty image', '', 'rabbitmq:4.2.6-management'],
    ['an image that is not a string', 42, 'rabbitmq:4.2.6-management'],
  ])('%s', (_case, current, expected) => {
    expect(imageAtVersion(current, '4.2.6', 'rabbitmq', '-management')).toBe(
      expected,
    );
  });

  it('has no suffix unless given one', () => {
    expect(imageAtVersion(undefined, '11.4', 'mariadb')).toBe('mariadb:11.4');
    expect(imageAtVersion('mariadb:latest', '11.4', 'mariadb')).toBe(
      'mariadb:11.4',
    );
  });
});
