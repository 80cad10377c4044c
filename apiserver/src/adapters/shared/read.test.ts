import { describe, it, expect } from '@jest/globals';
import {
  asNumber,
  asRecord,
  asString,
  conditionsOf,
  deletionProtectionOf,
  errorReason,
  findCondition,
  nameOf,
  namespaceOf,
  pascalCase,
  quantity,
  resourcesOf,
  versionFromImage,
  versionFromTag,
} from './read';

describe('readers over untrusted operator objects', () => {
  it.each<[unknown, string | undefined]>([
    ['x', 'x'],
    ['', undefined],
    [3, undefined],
    [null, undefined],
  ])('asString(%j)', (v, out) => expect(asString(v)).toBe(out));

  it.each<[unknown, number | undefined]>([
    [3, 3],
    [0, 0],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    ['3', undefined],
  ])('asNumber(%j)', (v, out) => expect(asNumber(v)).toBe(out));

  it.each<[unknown, boolean]>([
    [{}, true],
    [null, false],
    [[], false],
    ['x', false],
  ])('asRecord(%j) is a record: %s', (v, out) =>
    expect(asRecord(v) !== undefined).toBe(out),
  );

  it('keeps only well-formed conditions and finds one by type', () => {
    const status = {
      conditions: [
        null,
        'x',
        { status: 'True' },
        { type: 7 },
        { type: 'Ready', status: 'True' },
      ],
    };
    expect(conditionsOf(status)).toEqual([{ type: 'Ready', status: 'True' }]);
    expect(findCondition(status, 'Ready')?.status).toBe('True');
    expect(conditionsOf(undefined)).toEqual([]);
    expect(conditionsOf({ conditions: 'no' })).toEqual([]);
  });

  it.each<[unknown, string | undefined]>([
    ['mariadb:11.4.2', '11.4.2'],
    ['docker.io/library/rabbitmq:3.10.7-debian-11-r8', '3.10.7'],
    ['registry:5000/redis:v7.0.15', '7.0.15'],
    ['registry:5000/redis', undefined],
    ['redis:latest', undefined],
    ['redis@sha256:abc', undefined],
    ['redis:7.2@sha256:abc', '7.2'],
    ['my-11.4:x', undefined],
    [undefined, undefined],
  ])('versionFromImage(%j)', (image, version) =>
    expect(versionFromImage(image)).toBe(version),
  );

  it.each<[unknown, string | undefined]>([
    ['v7', '7'],
    ['11.4.2-ubi', '11.4.2'],
    ['ubi-11.4', undefined],
    [7, undefined],
  ])('versionFromTag(%j)', (tag, version) =>
    expect(versionFromTag(tag)).toBe(version),
  );

  it('reads quantities given as numbers, and never a non-finite one', () => {
    expect(quantity(6)).toBe('6');
    expect(quantity('500m')).toBe('500m');
    expect(quantity(Number.NaN)).toBeUndefined();
  });

  it('reads cpu and memory of requests and limits only, and nothing from empty lists', () => {
    expect(
      resourcesOf({
        requests: { cpu: 1, memory: '1Gi', 'ephemeral-storage': '1Gi' },
        limits: { memory: '2Gi' },
      }),
    ).toEqual({
      requests: { cpu: '1', memory: '1Gi' },
      limits: { memory: '2Gi' },
    });
    expect(
      resourcesOf({ requests: { 'ephemeral-storage': '1Gi' } }),
    ).toBeUndefined();
    expect(resourcesOf({ limits: { cpu: '2' } })).toEqual({
      limits: { cpu: '2' },
    });
    expect(resourcesOf({ requests: 'x' })).toBeUndefined();
    expect(resourcesOf(undefined)).toBeUndefined();
  });

  it('names and namespaces: default namespace, empty name for malformed input', () => {
    expect(namespaceOf({ metadata: { name: 'a' } })).toBe('default');
    expect(namespaceOf({})).toBe('default');
    expect(nameOf({})).toBe('');
    expect(nameOf({ metadata: { name: 'a', namespace: 'n' } })).toBe('a');
  });

  it.each([
    ['ONLINE_PARTIAL', 'OnlinePartial'],
    ['no-quorum', 'NoQuorum'],
    ['Setting up primary', 'SettingUpPrimary'],
    ['alreadyPascal', 'AlreadyPascal'],
    ['A1_B2', 'A1B2'],
    ['MixedCASE word', 'MixedCASEWord'],
  ])('pascalCase(%s) = %s', (v, out) => expect(pascalCase(v)).toBe(out));

  it('keeps specific error reasons and folds generic ones', () => {
    expect(errorReason('UnsupportedOperation')).toBe('UnsupportedOperation');
    expect(errorReason('invalid-config')).toBe('InvalidConfig');
    for (const generic of [
      undefined,
      '',
      'Error',
      'Failed',
      'Failure',
      'Unknown',
    ])
      expect(errorReason(generic)).toBe('OperatorError');
  });

  it('deletion protection is our annotation set to "true" only', () => {
    const annotated = (v: string) => ({
      metadata: {
        annotations: { 'dbaas.platform.dev/deletion-protection': v },
      },
    });
    expect(deletionProtectionOf(annotated('true'))).toBe(true);
    expect(deletionProtectionOf(annotated('false'))).toBeUndefined();
    expect(deletionProtectionOf({})).toBeUndefined();
  });
});
