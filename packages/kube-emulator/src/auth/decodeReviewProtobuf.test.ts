import { describe, expect, it } from '@jest/globals';
import { StoreError } from '../store/types';
import { decodeReviewProtobuf } from './decodeReviewProtobuf';

// The exact body kubectl v1.32 sent for `kubectl auth can-i list databaseinstances.dbaas.platform.dev -n team-a`.
const KUBECTL_SSAR = Buffer.from(
  '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f763112175365' +
    '6c665375626a6563744163636573735265766965771' +
    '25c0a100a001200' +
    '1a0022002a0032003800420012' +
    '3e0a3c0a067465616d2d6112046c6973741a00' +
    '22002a246461746162617365696e7374616e6365732e64626161732e706c' +
    '6174666f726d2e646576' +
    '32003a001a0808001200' +
    '1a0020001a002200',
  'hex',
);

function field(no: number, value: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(no << 3) | 2, value.length]), value]);
}
const str = (no: number, s: string) => field(no, Buffer.from(s));

describe('decodeReviewProtobuf', () => {
  it('decodes the SelfSubjectAccessReview kubectl sends', () => {
    expect(
      decodeReviewProtobuf(KUBECTL_SSAR, 'SelfSubjectAccessReview'),
    ).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: { name: '' },
      spec: {
        resourceAttributes: {
          namespace: 'team-a',
          verb: 'list',
          group: '',
          version: '',
          resource: 'databaseinstances.dbaas.platform.dev',
          subresource: '',
          name: '',
        },
      },
    });
  });

  it('decodes a SubjectAccessReview with groups, extra and uid', () => {
    const spec = Buffer.concat([
      field(2, Buffer.concat([str(1, '/metrics'), str(2, 'get')])),
      str(3, 'alice'),
      str(4, 'a,b'),
      str(4, 'system:authenticated'),
      field(
        5,
        Buffer.concat([
          str(1, 'scopes'),
          field(2, Buffer.concat([str(1, 'openid'), str(1, 'profile')])),
        ]),
      ),
      str(6, 'u-1'),
    ]);
    const unknown = Buffer.concat([
      field(
        1,
        Buffer.concat([
          str(1, 'authorization.k8s.io/v1'),
          str(2, 'SubjectAccessReview'),
        ]),
      ),
      field(2, field(2, spec)),
    ]);
    const body = Buffer.concat([Buffer.from('k8s\0', 'binary'), unknown]);
    expect(decodeReviewProtobuf(body, 'SubjectAccessReview').spec).toEqual({
      nonResourceAttributes: { path: '/metrics', verb: 'get' },
      user: 'alice',
      groups: ['a,b', 'system:authenticated'],
      extra: { scopes: ['openid', 'profile'] },
      uid: 'u-1',
    });
  });

  it.each([
    ['no envelope', Buffer.from('{"kind":"TokenReview"}')],
    ['a truncated message', KUBECTL_SSAR.subarray(0, 40)],
  ])('rejects %s with 400', (_, body) => {
    let error: unknown;
    try {
      decodeReviewProtobuf(body, 'TokenReview');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe(400);
  });
});
