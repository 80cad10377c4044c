import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'node:https';
import { KubeEmulator } from '@internal/kube-emulator';
import { parseManifests, type K8sObject } from './support/manifests';
import { helmTemplate, helmTemplateBackstage } from './support/tools';

/** A PolicyRule as RBAC and SelfSubjectRulesReview carry it. */
interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const SA = { namespace: 'dbaas-system', name: 'apiserver' };
const SA_USER = `system:serviceaccount:${SA.namespace}:${SA.name}`;
/** The Backstage backend's ServiceAccount, as the emulator installs deploy/backstage for it. */
const BACKEND_SA = { namespace: 'backstage', name: 'backend' };
const BACKEND_USER = `system:serviceaccount:${BACKEND_SA.namespace}:${BACKEND_SA.name}`;

/**
 * The two Kubernetes bootstrap roles the chart binds instead of defining (every cluster has them;
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy), written out here so that the emulator's copy
 * of them is checked too.
 */
const KUBERNETES_ROLES: Record<string, Rule[]> = {
  'ClusterRole/system:auth-delegator': [
    { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
    { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
  ],
  'Role/kube-system/extension-apiserver-authentication-reader': [
    {
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['extension-apiserver-authentication'],
      verbs: ['get', 'list', 'watch'],
    },
  ],
};

/** Order-free identity of a rule (lists sorted, empty lists dropped). */
function ruleKey(r: Rule): string {
  const sorted = (v?: string[]) => (v && v.length ? [...v].sort() : undefined);
  return JSON.stringify({
    apiGroups: sorted(r.apiGroups),
    nonResourceURLs: sorted(r.nonResourceURLs),
    resourceNames: sorted(r.resourceNames),
    resources: sorted(r.resources),
    verbs: sorted(r.verbs),
  });
}

const keys = (rules: Rule[]) => rules.map(ruleKey).sort();

/** Whether a binding names the apiserver's ServiceAccount, or a group it is in. */
type SubjectTest = (subject: any, binding: K8sObject) => boolean;

const serviceAccount =
  (sa: { namespace: string; name: string }): SubjectTest =>
  (s, binding) =>
    s.kind === 'ServiceAccount' && s.name === sa.name && (s.namespace || binding.metadata.namespace) === sa.namespace;
const theServiceAccount = serviceAccount(SA);

/** The groups every service account is in (and that any other one has too). */
const everyServiceAccount: SubjectTest = s =>
  s.kind === 'Group' && ['system:authenticated', 'system:serviceaccounts'].includes(s.name);

/**
 * What the chart grants the subjects `test` picks in `namespace`, worked out from the rendered
 * objects alone: the rules of every ClusterRoleBinding naming them, and of every RoleBinding in
 * that namespace naming them, resolved against the chart's roles or the Kubernetes ones it binds.
 */
function chartGrants(objects: K8sObject[], namespace: string, test: SubjectTest): Rule[] {
  const names = (o: K8sObject) => (o.subjects ?? []).some((s: any) => test(s, o));
  const rulesOf = (kind: string, name: string, ns?: string): Rule[] => {
    const role = objects.find(
      o => o.kind === kind && o.metadata.name === name && (kind === 'ClusterRole' || o.metadata.namespace === ns),
    );
    const known = KUBERNETES_ROLES[kind === 'ClusterRole' ? `${kind}/${name}` : `${kind}/${ns}/${name}`];
    if (!role && !known) throw new Error(`the chart binds ${kind} ${name}, which neither it nor Kubernetes defines`);
    return role ? role.rules : known;
  };
  return [
    ...objects
      .filter(o => o.kind === 'ClusterRoleBinding' && names(o))
      .flatMap(b => rulesOf(b.roleRef.kind, b.roleRef.name)),
    ...objects
      .filter(o => o.kind === 'RoleBinding' && o.metadata.namespace === namespace && names(o))
      .flatMap(b => rulesOf(b.roleRef.kind, b.roleRef.name, namespace)),
  ];
}

/** SelfSubjectRulesReview as `user` (admin impersonating it): what `kubectl auth can-i --list` shows. */
function rulesReviewOf(
  emulator: KubeEmulator,
  user: string,
  namespace: string,
): Promise<{ resourceRules: Rule[]; nonResourceRules: Rule[] }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace },
    });
    const url = new URL('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', emulator.url);
    const req = request(
      url,
      {
        method: 'POST',
        ca: emulator.certs.clusterCa.certPem,
        cert: emulator.certs.admin.certPem,
        key: emulator.certs.admin.keyPem,
        headers: { 'Content-Type': 'application/json', 'Impersonate-User': user },
      },
      res => {
        let text = '';
        res.on('data', d => (text += d));
        res.on('end', () => {
          if (res.statusCode !== 201) reject(new Error(`${res.statusCode}: ${text}`));
          else resolve(JSON.parse(text).status);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const rbacOnly = (objects: K8sObject[]) => objects.filter(o => o.apiVersion.startsWith('rbac.authorization.k8s.io/'));

let emulator: KubeEmulator;
/** Both charts as the emulator installs them (docs/install.md's releases and namespaces). */
let chart: K8sObject[];
let backstageChart: K8sObject[];

const rulesReview = (user: string, namespace: string) => rulesReviewOf(emulator, user, namespace);

beforeAll(async () => {
  chart = rbacOnly(parseManifests(helmTemplate(['--set', 'serviceAccount.name=apiserver'])));
  backstageChart = rbacOnly(parseManifests(helmTemplateBackstage(['--set', 'serviceAccount.name=backend'])));
  emulator = await KubeEmulator.start({ operators: false });
}, 60_000);

afterAll(() => emulator?.stop());

// The emulator's authorisation of the apiserver is the chart's: nothing hand-written beside it.
describe('the emulator authorises the apiserver exactly as the Helm chart does', () => {

  it.each(['kube-system', 'dbaas-system', 'team-a', 'default'])(
    'in %s: every service account’s rules plus the chart’s, nothing else',
    async namespace => {
      const [own, baseline] = await Promise.all([
        rulesReview(SA_USER, namespace),
        // a service account nothing binds: what every service account has (discovery, self reviews)
        rulesReview(`system:serviceaccount:${SA.namespace}:nobody`, namespace),
      ]);
      const expected = chartGrants(chart, namespace, theServiceAccount);
      expect(expected.length).toBeGreaterThan(0);
      expect(keys([...own.resourceRules, ...own.nonResourceRules])).toEqual(
        keys([...baseline.resourceRules, ...baseline.nonResourceRules, ...expected]),
      );
      // and what every service account has is Kubernetes' self-service and what the chart grants all
      const forAll = chartGrants(chart, namespace, everyServiceAccount).flatMap(r => r.resources ?? []);
      expect(baseline.resourceRules.flatMap(r => r.resources ?? []).sort()).toEqual(
        ['selfsubjectaccessreviews', 'selfsubjectreviews', 'selfsubjectrulesreviews', ...forAll].sort(),
      );
    },
  );

  it('the chart grants Secrets get, list, watch (binding Secrets, rotations), create, patch and delete, never update', async () => {
    const { resourceRules } = await rulesReview(SA_USER, 'team-a');
    const secretVerbs = resourceRules
      .filter(r => r.apiGroups?.includes('') && r.resources?.includes('secrets'))
      .flatMap(r => r.verbs)
      .sort();
    expect(secretVerbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'watch']);
  });
});

// The Backstage backend's as deploy/backstage's: a rule missing there is missing in every test
// of the backend against the emulator.
describe('the emulator authorises the Backstage backend exactly as deploy/backstage does', () => {
  it.each(['backstage', 'team-a', 'default'])(
    'in %s: every service account’s rules plus deploy/backstage’s, nothing else',
    async namespace => {
      const [own, baseline] = await Promise.all([
        rulesReview(BACKEND_USER, namespace),
        rulesReview(`system:serviceaccount:${BACKEND_SA.namespace}:nobody`, namespace),
      ]);
      const expected = chartGrants(backstageChart, namespace, serviceAccount(BACKEND_SA));
      expect(keys(expected)).toEqual(keys(backstageChart.find(o => o.kind === 'ClusterRole')!.rules));
      expect(keys([...own.resourceRules, ...own.nonResourceRules])).toEqual(
        keys([...baseline.resourceRules, ...baseline.nonResourceRules, ...expected]),
      );
    },
  );
});

/** A RoleBinding of `role` alone to `user` in `namespace`, made as an admin would; returns the undo. */
function bindAlone(user: string, role: string, namespace: string): () => void {
  const rolebindings = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings' };
  const name = `${user}-${role}`;
  emulator.store.create(rolebindings, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  });
  return () => emulator.store.delete(rolebindings, namespace, name);
}

// Each user role works bound on its own, as Kubernetes' edit includes view.
describe('the chart’s user roles, each bound alone in a namespace', () => {
  const NAMESPACE = 'dbaas-system'; // exists from the start; RBAC does not care which
  it.each([
    ['dbaas-view', ['get', 'list', 'watch'], false],
    ['dbaas-edit', ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'], false],
    ['dbaas-admin', ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'], true],
  ])('%s gives %j on databaseinstances (credentials: %s)', async (role, verbs, credentials) => {
    const user = `only-${role}`;
    const unbind = bindAlone(user, role, NAMESPACE);
    try {
      const { resourceRules } = await rulesReview(user, NAMESPACE);
      const on = (resource: string) =>
        [...new Set(resourceRules.filter(r => r.resources?.includes(resource)).flatMap(r => r.verbs))].sort();
      expect(on('databaseinstances')).toEqual([...verbs].sort());
      expect(on('databaseinstances/status')).toEqual(['get', 'list', 'watch']);
      expect(on('databaseinstances/connection')).toEqual(credentials ? ['get'] : []);
      // what is wrong with an instance is part of viewing it; still its own grant
      expect(on('databaseinstances/diagnosis')).toEqual(['get', 'list', 'watch']);
      // and so are its events (kubectl describe dbi lists them)
      expect(on('events')).toEqual(['get', 'list', 'watch']);
      // backups (issue 22): view reads runs and schedules, edit backs up now, admin schedules and deletes
      const backups = { 'dbaas-view': ['get', 'list', 'watch'], 'dbaas-edit': ['create', 'get', 'list', 'watch'] }[role as 'dbaas-view' | 'dbaas-edit'] ??
        ['create', 'delete', 'get', 'list', 'watch'];
      expect(on('databasebackups')).toEqual(backups);
      expect(on('databasebackupschedules')).toEqual(
        role === 'dbaas-admin' ? ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] : ['get', 'list', 'watch'],
      );
    } finally {
      unbind();
    }
  });
});
