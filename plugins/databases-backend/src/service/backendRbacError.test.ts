import { describe, expect, it } from '@jest/globals';
import { KubeRequestError } from '../kube/KubeRequestError';
import { backendRbacError } from './backendRbacError';

const NAMESPACES_FORBIDDEN =
  'namespaces is forbidden: User "system:serviceaccount:backstage:backend" cannot list resource "namespaces" in API group "" at the cluster scope';
const WATCH_FORBIDDEN =
  'databaseinstances.dbaas.platform.dev is forbidden: User "system:serviceaccount:backstage:backend" cannot list resource "databaseinstances" in API group "dbaas.platform.dev" at the cluster scope';

const refused = () => new KubeRequestError('prod', 'FORBIDDEN', NAMESPACES_FORBIDDEN, 403, { kind: 'Status', code: 403 });

describe('backendRbacError', () => {
  it("names what the backend lacks, where to get it, and what the cluster said; a 503 for the user (backend's, not theirs)", () => {
    const e = backendRbacError('prod', refused(), 'list namespaces', { healthy: true }) as KubeRequestError;
    expect(e.message).toBe(
      `the backend's own RBAC in cluster prod does not let it list namespaces: give the backend's service account the ClusterRole of deploy/backstage (docs/install.md, "Backstage"). The cluster said: ${NAMESPACES_FORBIDDEN}`,
    );
    expect(e).toMatchObject({ cluster: 'prod', errorType: 'FORBIDDEN', statusCode: 403, backendCredentials: true });
  });

  it('also names the watch when RBAC refuses it too (no deploy/backstage at all)', () => {
    const e = backendRbacError('prod', refused(), 'list namespaces', { healthy: false, message: WATCH_FORBIDDEN }) as KubeRequestError;
    expect(e.message).toContain(
      `does not let it list namespaces, and its watch of every DatabaseInstance is refused too (${WATCH_FORBIDDEN}): give the backend's service account`,
    );
  });

  it('does not blame RBAC for a watch that fails otherwise', () => {
    const e = backendRbacError('prod', refused(), 'list namespaces', {
      healthy: false,
      message: 'cluster prod has not answered since 2026-12-01T10:00:00Z',
    }) as KubeRequestError;
    expect(e.message).not.toContain('DatabaseInstance');
  });

  it.each([
    ['a 404', new KubeRequestError('prod', 'BAD_RESPONSE', 'not found', 404)],
    ['no answer', new KubeRequestError('prod', 'TIMEOUT', 'cluster prod did not answer')],
    ['rejected credentials (already says whose)', new KubeRequestError('prod', 'UNAUTHORIZED', 'x', 401, undefined, { backendCredentials: true })],
    ['anything else thrown', new Error('boom')],
  ])('leaves %s as it is', (_what, error) => {
    expect(backendRbacError('prod', error, 'list namespaces')).toBe(error);
  });
});
