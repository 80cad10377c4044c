import { describe, expect, it, jest } from '@jest/globals';
import { grants, KNOWN_KINDS, parseManifests, theObject } from './support/manifests';
import { backstageChartDir, helmBinary, helmTemplateBackstage, run } from './support/tools';

jest.setTimeout(60_000);

const NAME = ['--set', 'serviceAccount.name=backstage'];

/**
 * What the databases plugin calls as the backend itself (everything else it sends as the user,
 * by impersonation): Impersonate-User and Impersonate-Group; the ClusterWatcher's list and watch
 * of every DatabaseInstance; DatabasesService's list of namespaces. The backend's tests against
 * the emulator (which runs with this chart's rules) fail when one is missing.
 */
const BACKEND_CALLS = [
  { apiGroup: '', resource: 'users', verb: 'impersonate' },
  { apiGroup: '', resource: 'groups', verb: 'impersonate' },
  { apiGroup: 'dbaas.platform.dev', resource: 'databaseinstances', verb: 'list' },
  { apiGroup: 'dbaas.platform.dev', resource: 'databaseinstances', verb: 'watch' },
  { apiGroup: '', resource: 'namespaces', verb: 'list' },
];

const key = (g: { apiGroup: string; resource: string; verb: string }) => `${g.verb} ${g.resource}.${g.apiGroup}`;

describe('deploy/backstage (the Backstage backend’s RBAC chart)', () => {
  it('passes helm lint --strict', () => {
    const r = run(helmBinary(), ['lint', '--strict', backstageChartDir, ...NAME]);
    expect(r.stderr + r.stdout).toContain('0 chart(s) failed');
    expect(r.code).toBe(0);
  });

  it('renders one ClusterRole and one ClusterRoleBinding, named after the release', () => {
    const objects = parseManifests(helmTemplateBackstage(NAME));
    expect(objects.map(o => `${o.apiVersion} ${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'rbac.authorization.k8s.io/v1 ClusterRole/dbaas-backstage',
      'rbac.authorization.k8s.io/v1 ClusterRoleBinding/dbaas-backstage',
    ]);
    for (const o of objects) {
      expect(KNOWN_KINDS[o.apiVersion]).toContain(o.kind);
      expect(o.metadata.namespace).toBeUndefined();
    }
  });

  it('grants exactly what the backend calls as itself: no get, no engines, no Secrets, no wildcard', () => {
    const role = theObject(parseManifests(helmTemplateBackstage(NAME)), 'ClusterRole');
    expect(grants(role).map(key).sort()).toEqual(BACKEND_CALLS.map(key).sort());
    // impersonation of users and groups only: not service accounts, uids or user extras
    expect(role.rules.every((r: any) => !r.resourceNames && !r.nonResourceURLs)).toBe(true);
  });

  it('binds the ServiceAccount it is given, in the release namespace unless told another', () => {
    const binding = (args: string[]) => theObject(parseManifests(helmTemplateBackstage(args)), 'ClusterRoleBinding');
    expect(binding(NAME)).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'dbaas-backstage' },
      subjects: [{ kind: 'ServiceAccount', name: 'backstage', namespace: 'backstage' }],
    });
    expect(binding(['--set', 'serviceAccount.name=portal,serviceAccount.namespace=developer-portal']).subjects).toEqual([
      { kind: 'ServiceAccount', name: 'portal', namespace: 'developer-portal' },
    ]);
  });

  it('lets two Backstage installations have their own (fullnameOverride or another release)', () => {
    const names = (args: string[], release?: string) =>
      parseManifests(helmTemplateBackstage([...NAME, ...args], release)).map(o => o.metadata.name);
    expect(names([], 'staging-backstage')).toEqual(['staging-backstage', 'staging-backstage']);
    expect(names(['--set', 'fullnameOverride=portal-databases'])).toEqual(['portal-databases', 'portal-databases']);
  });

  // Impersonating anyone is as strong as cluster-admin: a default name would bind whoever
  // creates that ServiceAccount later.
  it.each([
    ['no ServiceAccount name', [], /serviceAccount\/name/],
    ['a misspelt key', [...NAME, '--set', 'serviceAcount.name=x'], /serviceAcount/],
    ['an invalid name', ['--set', 'serviceAccount.name=Back Stage'], /serviceAccount\/name/],
  ])('refuses %s', (_what, args, message) => {
    const r = run(helmBinary(), ['template', 'dbaas-backstage', backstageChartDir, '-n', 'backstage', ...args]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });
});
