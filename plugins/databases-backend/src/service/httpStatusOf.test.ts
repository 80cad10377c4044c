import { describe, expect, it } from '@jest/globals';
import {
  ConflictError,
  InputError,
  NotAllowedError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { httpStatusOf } from './httpStatusOf';
import { toBackstageError } from './toBackstageError';
import { errorTypeForStatus, KubeRequestError } from '../kube/KubeRequestError';

describe('httpStatusOf', () => {
  it('gives the status Backstage answers for an error, not the cluster status behind it', () => {
    expect(
      httpStatusOf(
        toBackstageError(
          new KubeRequestError('dev', errorTypeForStatus(422), 'bad', 422),
        ),
      ),
    ).toBe(400);
    expect(httpStatusOf(new InputError('x'))).toBe(400);
    expect(httpStatusOf(new NotAllowedError('x'))).toBe(403);
    expect(httpStatusOf(new ConflictError('x'))).toBe(409);
    expect(httpStatusOf(new ServiceUnavailableError('x'))).toBe(503);
    expect(
      httpStatusOf(Object.assign(new Error('x'), { statusCode: 429 })),
    ).toBe(429);
    expect(httpStatusOf(new Error('x'))).toBe(500);
  });
});
