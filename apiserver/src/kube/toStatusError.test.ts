import { describe, expect, it } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { KubeHttpError } from './kubeRequest';
import { toStatusError } from './toStatusError';

const denied = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  reason: 'Invalid',
  code: 422,
  message:
    'MariaDB.k8s.mariadb.com "x" is invalid: spec.replicas: Invalid value',
  details: { name: 'x', kind: 'MariaDB', causes: [{ field: 'spec.replicas' }] },
};

describe('toStatusError', () => {
  it.each([
    {
      name: 'KubeHttpError with a Status body passes it through',
      err: new KubeHttpError(422, denied),
      code: 422,
      reason: 'Invalid',
      message: denied.message,
    },
    {
      name: 'ApiException with a JSON string body',
      err: new ApiException(
        409,
        'x',
        JSON.stringify({
          ...denied,
          code: 409,
          reason: 'Conflict',
          message: 'conflict',
        }),
        {},
      ),
      code: 409,
      reason: 'Conflict',
      message: 'conflict',
    },
    {
      name: 'non-Status body gets the reason for the code',
      err: new KubeHttpError(404, '404 page not found'),
      code: 404,
      reason: 'NotFound',
      message: 'kube-apiserver answered HTTP 404',
    },
    {
      name: 'transport error is 503, never 500',
      err: new Error('connect ECONNREFUSED 127.0.0.1:6443'),
      code: 503,
      reason: 'ServiceUnavailable',
      message:
        'kube-apiserver unreachable: connect ECONNREFUSED 127.0.0.1:6443',
    },
  ])('$name', ({ err, code, reason, message }) => {
    const s = toStatusError(err);
    expect(s.status).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code,
      reason,
      message,
    });
  });

  it('keeps details of a passed-through Status', () => {
    expect(
      toStatusError(new KubeHttpError(422, denied)).status.details,
    ).toEqual(denied.details);
  });
});
