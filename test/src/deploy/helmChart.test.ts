import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  allows,
  grants,
  KNOWN_KINDS,
  parseManifests,
  theObject,
  type K8sObject,
} from './support/manifests';
import { adapters, defaultOptions, validateOptions } from '@internal/databases-apiserver';
import {
  chartDir,
  helmBinary,
  helmTemplate,
  run,
  runOk,
} from './support/tools';

jest.setTimeout(60_000);

const CERT_MANAGER = ['--set', 'certManager.enabled=true'];
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'APIService',
]);
const BASE_KINDS = [
  'APIService',
  'ClusterRole',
  'ClusterRoleBinding',
  'Deployment',
  'PodDisruptionBudget',
  'Role',
  'RoleBinding',
  'Service',
  'ServiceAccount',
];

/** The PEM inside a base64 field (Secret data, caBundle). */
const fromBase64 = (value: string) =>
  Buffer.from(value, 'base64').toString('utf8');

let plain: K8sObject[];
let withCertManager: K8sObject[];

beforeAll(() => {
  plain = parseManifests(helmTemplate());
  withCertManager = parseManifests(helmTemplate(CERT_MANAGER));
});

describe('install order', () => {
  it('puts the APIService after the Deployment, so Helm registers the API last and removes it first', () => {
    // `helm template` prints objects in Helm's install order; uninstall runs the other way.
    const kinds = plain.map(o => o.kind);
    expect(kinds.indexOf('APIService')).toBeGreaterThan(
      kinds.indexOf('Deployment'),
    );
    expect(kinds.indexOf('APIService')).toBeGreaterThan(
      kinds.indexOf('Service'),
    );
  });
});

describe('helm lint', () => {
  it.each([
    ['default values', []],
    ['cert-manager', CERT_MANAGER],
    [
      'one replica, two engines',
      ['--set', 'replicaCount=1,engines.redis=false,engines.mysql=false'],
    ],
  ])('passes --strict with %s', (_name, args) => {
    const r = run(helmBinary(), ['lint', '--strict', chartDir, ...args]);
    expect(r.stderr + r.stdout).toContain('0 chart(s) failed');
    expect(r.code).toBe(0);
  });
});

describe.each([
  ['generated certificate', () => plain, [...BASE_KINDS, 'Secret']],
  [
    'cert-manager',
    () => withCertManager,
    [...BASE_KINDS, 'Certificate', 'Issuer'],
  ],
])('rendered objects (%s)', (_name, objects, kinds) => {
  it('has exactly the expected kinds', () => {
    expect([...new Set(objects().map(o => o.kind))].sort()).toEqual(
      [...kinds].sort(),
    );
  });

  it('uses only known apiVersion/kind pairs', () => {
    for (const o of objects()) {
      expect({
        kind: o.kind,
        known: KNOWN_KINDS[o.apiVersion]?.includes(o.kind) ?? false,
      }).toEqual({
        kind: o.kind,
        known: true,
      });
    }
  });

  it('puts namespaced objects in a namespace and cluster-scoped ones in none', () => {
    const misplaced = objects().filter(o =>
      CLUSTER_SCOPED.has(o.kind)
        ? o.metadata.namespace !== undefined
        : !['dbaas-system', 'kube-system'].includes(o.metadata.namespace ?? ''),
    );
    expect(
      misplaced.map(
        o => `${o.kind}/${o.metadata.name} in ${o.metadata.namespace}`,
      ),
    ).toEqual([]);
  });

  it('names every object uniquely', () => {
    const ids = objects().map(
      o => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`,
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('Deployment', () => {
  const deployment = () => theObject(plain, 'Deployment', 'dbaas-apiserver');
  const container = () => deployment().spec.template.spec.containers[0];

  it('runs 2 replicas that roll one at a time without losing one', () => {
    expect(deployment().spec.replicas).toBe(2);
    expect(deployment().spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it.each([
    ['livenessProbe', '/livez'],
    ['readinessProbe', '/readyz'],
  ])('%s is GET %s over HTTPS on 8443', (probe, probePath) => {
    expect(container()[probe].httpGet).toEqual({
      path: probePath,
      port: 8443,
      scheme: 'HTTPS',
    });
  });

  it('listens on 8443 and reads the serving certificate from the Secret', () => {
    expect(container().ports).toEqual([
      expect.objectContaining({ name: 'https', containerPort: 8443 }),
    ]);
    expect(container().args).toEqual(
      expect.arrayContaining([
        '--secure-port=8443',
        '--tls-cert-file=/var/run/dbaas/serving-cert/tls.crt',
        '--tls-private-key-file=/var/run/dbaas/serving-cert/tls.key',
      ]),
    );
    const mount = container().volumeMounts.find(
      (m: any) => m.mountPath === '/var/run/dbaas/serving-cert',
    );
    const volume = deployment().spec.template.spec.volumes.find(
      (v: any) => v.name === mount.name,
    );
    expect(volume.secret.secretName).toBe('dbaas-apiserver-serving-cert');
  });

  it('runs as non-root on a read-only root filesystem with no capabilities', () => {
    const pod = deployment().spec.template.spec;
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container().securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  it('has resources, a shutdown delay below the grace period and no priority class', () => {
    const pod = deployment().spec.template.spec;
    expect(container().resources.requests).toEqual(
      expect.objectContaining({
        cpu: expect.any(String),
        memory: expect.any(String),
      }),
    );
    expect(container().resources.limits.memory).toEqual(expect.any(String));
    const delayMs = Number(
      container().env.find(
        (e: any) => e.name === 'DBAAS_APISERVER_SHUTDOWN_DELAY_MS',
      ).value,
    );
    expect(delayMs).toBeGreaterThan(0);
    expect(delayMs).toBeLessThan(pod.terminationGracePeriodSeconds * 1000);
    expect(pod.priorityClassName).toBeUndefined();
  });

  it('uses the ServiceAccount the chart binds', () => {
    const sa = theObject(plain, 'ServiceAccount');
    expect(deployment().spec.template.spec.serviceAccountName).toBe(
      sa.metadata.name,
    );
  });

  it('is covered by a PodDisruptionBudget keeping one replica', () => {
    const pdb = theObject(plain, 'PodDisruptionBudget');
    expect(pdb.spec.minAvailable).toBe(1);
    expect(pdb.spec.selector.matchLabels).toEqual(
      deployment().spec.selector.matchLabels,
    );
  });
});

describe('Service', () => {
  it('exposes 443 named https, targeting 8443 of the Deployment pods', () => {
    const svc = theObject(plain, 'Service', 'dbaas-apiserver');
    expect(svc.spec.type).toBe('ClusterIP');
    expect(svc.spec.ports).toEqual([
      expect.objectContaining({ name: 'https', port: 443, targetPort: 8443 }),
    ]);
    const podLabels = theObject(plain, 'Deployment').spec.template.metadata
      .labels;
    expect(podLabels).toEqual(expect.objectContaining(svc.spec.selector));
  });
});

describe('APIService', () => {
  const base = {
    group: 'dbaas.platform.dev',
    version: 'v1alpha1',
    groupPriorityMinimum: 1000,
    versionPriority: 15,
    service: { name: 'dbaas-apiserver', namespace: 'dbaas-system', port: 443 },
  };

  it('registers v1alpha1.dbaas.platform.dev at the Service with a CA bundle (generated certificate)', () => {
    const api = theObject(plain, 'APIService');
    expect(api.metadata.name).toBe(`${api.spec.version}.${api.spec.group}`);
    expect(api.spec).toMatchObject(base);
    expect(api.spec.insecureSkipTLSVerify).toBeUndefined();
    const pem = fromBase64(api.spec.caBundle);
    expect(pem).toMatch(
      /^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n?$/,
    );
    expect(new X509Certificate(pem).ca).toBe(true);
    expect(
      api.metadata.annotations?.['cert-manager.io/inject-ca-from'],
    ).toBeUndefined();
  });

  it('asks cert-manager to inject the CA of the serving Certificate (cert-manager)', () => {
    const api = theObject(withCertManager, 'APIService');
    expect(api.spec).toMatchObject(base);
    expect(api.spec.caBundle).toBeUndefined();
    const [ns, name] =
      api.metadata.annotations!['cert-manager.io/inject-ca-from'].split('/');
    const cert = theObject(withCertManager, 'Certificate', name);
    expect(cert.metadata.namespace).toBe(ns);
    const volumes = theObject(withCertManager, 'Deployment').spec.template.spec
      .volumes;
    expect(volumes.map((v: any) => v.secret?.secretName)).toContain(
      cert.spec.secretName,
    );
  });
});

describe('cert-manager objects', () => {
  it('chain a self-signed Issuer → CA Certificate → CA Issuer → serving Certificate for the Service', () => {
    const issuers = withCertManager.filter(o => o.kind === 'Issuer');
    const selfSigned = issuers.find(i => i.spec.selfSigned)!;
    const caIssuer = issuers.find(i => i.spec.ca)!;
    const caCert = withCertManager.find(
      o => o.kind === 'Certificate' && o.spec.isCA,
    )!;
    const serving = withCertManager.find(
      o => o.kind === 'Certificate' && !o.spec.isCA,
    )!;
    expect(caCert.spec.issuerRef).toEqual({
      kind: 'Issuer',
      name: selfSigned.metadata.name,
    });
    expect(caIssuer.spec.ca.secretName).toBe(caCert.spec.secretName);
    expect(serving.spec.issuerRef).toEqual({
      kind: 'Issuer',
      name: caIssuer.metadata.name,
    });
    expect(serving.spec.dnsNames).toContain('dbaas-apiserver.dbaas-system.svc');
    expect(serving.spec.usages).toContain('server auth');
  });

  it.each([
    [
      'auto with cert-manager.io/v1 served',
      ['--api-versions', 'cert-manager.io/v1'],
      true,
    ],
    ['auto without it', [], false],
    [
      'false even when served',
      [
        '--set',
        'certManager.enabled=false',
        '--api-versions',
        'cert-manager.io/v1',
      ],
      false,
    ],
  ])('is used when %s', (_name, args, expected) => {
    const objects = parseManifests(helmTemplate(args));
    expect(objects.some(o => o.kind === 'Certificate')).toBe(expected);
    expect(objects.some(o => o.kind === 'Secret')).toBe(!expected);
  });
});

describe('generated serving certificate', () => {
  it.each([
    ['dbaas', 'dbaas-system', 'dbaas-apiserver'],
    ['prod', 'databases', 'prod-apiserver'],
  ])(
    'release %s in %s: covers the Service names and chains to the caBundle',
    (release, namespace, svc) => {
      const objects = parseManifests(helmTemplate([], release, namespace));
      const secret = theObject(objects, 'Secret');
      const api = theObject(objects, 'APIService');
      expect(theObject(objects, 'Service').metadata.name).toBe(svc);
      expect(secret.type).toBe('kubernetes.io/tls');

      const ca = new X509Certificate(fromBase64(api.spec.caBundle));
      const cert = new X509Certificate(fromBase64(secret.data['tls.crt']));
      const key = createPrivateKey(fromBase64(secret.data['tls.key']));

      expect(fromBase64(secret.data['ca.crt'])).toBe(
        fromBase64(api.spec.caBundle),
      );
      const sans = (cert.subjectAltName ?? '').split(', ');
      expect(sans).toEqual(
        expect.arrayContaining([
          `DNS:${svc}.${namespace}.svc`,
          `DNS:${svc}.${namespace}.svc.cluster.local`,
        ]),
      );
      expect(cert.checkIssued(ca)).toBe(true);
      expect(cert.verify(ca.publicKey)).toBe(true);
      expect(cert.checkPrivateKey(key)).toBe(true);
      expect(cert.ca).toBe(false);
      expect(new Date(cert.validTo).getTime()).toBeGreaterThan(
        Date.now() + 365 * 24 * 3600 * 1000,
      );
    },
  );

  it('is signed with SHA-256 (kube-apiserver refuses SHA-1)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dbaas-cert-'));
    try {
      const file = path.join(dir, 'tls.crt');
      writeFileSync(
        file,
        fromBase64(theObject(plain, 'Secret').data['tls.crt']),
      );
      const text = runOk('openssl', ['x509', '-in', file, '-noout', '-text']);
      expect(text).toMatch(/Signature Algorithm: sha256With/);
      expect(text).toMatch(/TLS Web Server Authentication/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rolls the pods when the pair changes (checksum annotation follows the Secret)', () => {
    const a = theObject(parseManifests(helmTemplate()), 'Deployment');
    const b = theObject(parseManifests(helmTemplate()), 'Deployment');
    // Without a cluster every render generates a new pair, so the checksums must differ.
    expect(
      a.spec.template.metadata.annotations['checksum/serving-cert'],
    ).not.toBe(b.spec.template.metadata.annotations['checksum/serving-cert']);
  });
});

describe('RBAC of the apiserver', () => {
  const role = () => theObject(plain, 'ClusterRole', 'dbaas-apiserver');
  const sa = {
    kind: 'ServiceAccount',
    name: 'dbaas-apiserver',
    namespace: 'dbaas-system',
  };

  it('binds system:auth-delegator (TokenReview, SubjectAccessReview) to the ServiceAccount', () => {
    const binding = plain.find(
      o =>
        o.kind === 'ClusterRoleBinding' &&
        o.roleRef.name === 'system:auth-delegator',
    )!;
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'system:auth-delegator',
    });
    expect(binding.subjects).toEqual([sa]);
  });

  it('binds extension-apiserver-authentication-reader in kube-system', () => {
    const binding = plain.find(
      o => o.kind === 'RoleBinding' && o.metadata.namespace === 'kube-system',
    )!;
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'extension-apiserver-authentication-reader',
    });
    expect(binding.subjects).toEqual([sa]);
  });

  it('binds its own ClusterRole to the ServiceAccount', () => {
    const binding = plain.find(
      o =>
        o.kind === 'ClusterRoleBinding' &&
        o.roleRef.name === role().metadata.name,
    )!;
    expect(binding.subjects).toEqual([sa]);
  });

  // every kind every adapter reads: a new operator's grant is checked with no change here
  const operatorKinds: Array<[string, string]> = adapters.flatMap(a =>
    a.kinds.map(k => [k.group, k.plural] as [string, string]),
  );
  it('grants the kinds of all six operators at least', () => {
    expect(operatorKinds).toEqual(
      expect.arrayContaining([
        ['k8s.mariadb.com', 'mariadbs'],
        ['redis.redis.opstreelabs.in', 'redissentinels'],
        ['postgresql.cnpg.io', 'clusters'],
      ]),
    );
    expect(new Set(operatorKinds.map(([g]) => g)).size).toBeGreaterThanOrEqual(6);
  });
  it.each(operatorKinds)('may read and write %s %s', (group, resource) => {
    for (const verb of [
      'get',
      'list',
      'watch',
      'create',
      'update',
      'patch',
      'delete',
    ]) {
      expect(`${verb}:${allows(role(), group, resource, verb)}`).toBe(
        `${verb}:true`,
      );
    }
  });

  it.each([
    [
      'apiextensions.k8s.io',
      'customresourcedefinitions',
      ['list', 'watch'],
      ['create', 'delete'],
    ],
    ['apps', 'statefulsets', ['list', 'watch'], ['create', 'delete']],
    // create: credentials the operator needs first, and the binding Secrets; patch: their owner
    // reference, and a binding Secret after a rotation; delete: rollback; list/watch: rotations of
    // the operators' Secrets and the binding Secrets (status.binding; docs/security.md says what
    // this widens). Never update (a PUT would replace what it did not read) nor deletecollection.
    ['', 'secrets', ['get', 'list', 'watch', 'create', 'patch', 'delete'], ['update', 'deletecollection']],
    ['', 'namespaces', ['get', 'list', 'watch'], ['create', 'delete']],
    // status.members: the operators' member pods, watched by label; the diagnosis lists them too
    ['', 'pods', ['list', 'watch'], ['get', 'create', 'delete', 'patch']],
    ['', 'persistentvolumeclaims', ['list'], ['watch', 'create', 'delete']],
    // the operators' events mirrored onto the instances: watched, written, the oldest deleted
    ['', 'events', ['list', 'watch', 'create', 'patch', 'delete'], ['get', 'update', 'deletecollection']],
  ])('on %s %s may %j and may not %j', (group, resource, allowed, denied) => {
    for (const verb of allowed)
      expect(`${verb}:${allows(role(), group, resource, verb)}`).toBe(
        `${verb}:true`,
      );
    for (const verb of denied)
      expect(`${verb}:${allows(role(), group, resource, verb)}`).toBe(
        `${verb}:false`,
      );
  });

  // Backups (issue 22): the operators' backup objects are created and deleted for DatabaseBackups,
  // schedules (a mariadb-operator Backup with spec.schedule, a CloudNativePG ScheduledBackup)
  // updated too; a run's phase is read from its Job, so Jobs and CronJobs are read cluster-wide.
  it.each([
    ['k8s.mariadb.com', 'backups', ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['deletecollection']],
    // a bootstrap restore's outcome is read from the Restore the operator makes; never written
    ['k8s.mariadb.com', 'restores', ['get', 'list', 'watch'], ['create', 'update', 'patch', 'delete']],
    ['mysql.oracle.com', 'mysqlbackups', ['get', 'list', 'watch', 'create', 'delete'], ['update', 'patch', 'deletecollection']],
    ['postgresql.cnpg.io', 'backups', ['get', 'list', 'watch', 'create', 'delete'], ['update', 'patch', 'deletecollection']],
    ['postgresql.cnpg.io', 'scheduledbackups', ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['deletecollection']],
    // a run of a mariadb-operator schedule is a Job of its CronJob: its DatabaseBackup's delete deletes it
    ['batch', 'jobs', ['get', 'list', 'watch', 'delete'], ['create', 'update', 'patch', 'deletecollection']],
    ['batch', 'cronjobs', ['get', 'list', 'watch'], ['create', 'update', 'patch', 'delete']],
  ])('backups: on %s %s may %j and may not %j', (group, resource, allowed, denied) => {
    for (const verb of allowed)
      expect(`${verb}:${allows(role(), group, resource, verb)}`).toBe(`${verb}:true`);
    for (const verb of denied)
      expect(`${verb}:${allows(role(), group, resource, verb)}`).toBe(`${verb}:false`);
  });

  it('leaves out the backup kinds of engines turned off, and batch when no engine has backups', () => {
    const some = theObject(
      parseManifests(helmTemplate(['--set', 'engines.mariadb=false,engines.postgresql=false'])),
      'ClusterRole',
      'dbaas-apiserver',
    );
    expect(allows(some, 'k8s.mariadb.com', 'backups', 'create')).toBe(false);
    expect(allows(some, 'k8s.mariadb.com', 'restores', 'watch')).toBe(false);
    expect(allows(some, 'postgresql.cnpg.io', 'scheduledbackups', 'create')).toBe(false);
    expect(allows(some, 'mysql.oracle.com', 'mysqlbackups', 'create')).toBe(true);
    expect(allows(some, 'batch', 'jobs', 'watch')).toBe(true);
    // only mariadb-operator's scheduled runs are Jobs the apiserver deletes
    expect(allows(some, 'batch', 'jobs', 'delete')).toBe(false);
    const none = theObject(
      parseManifests(helmTemplate(['--set', 'engines.mariadb=false,engines.postgresql=false,engines.mysql=false'])),
      'ClusterRole',
      'dbaas-apiserver',
    );
    expect(grants(none).some(g => g.apiGroup === 'batch')).toBe(false);
  });

  it('has no wildcard', () => {
    for (const g of grants(role()))
      expect([g.apiGroup, g.resource, g.verb]).not.toContain('*');
  });

  it('reads ConfigMaps only in the policy namespace', () => {
    const objects = parseManifests(
      helmTemplate([
        '--set',
        'policy.namespace=platform,policy.configMapName=limits',
      ]),
    );
    const policyRole = objects.find(
      o => o.kind === 'Role' && allows(o, '', 'configmaps', 'watch'),
    )!;
    expect(policyRole.metadata.namespace).toBe('platform');
    const binding = objects.find(
      o =>
        o.kind === 'RoleBinding' && o.roleRef.name === policyRole.metadata.name,
    )!;
    expect(binding.metadata.namespace).toBe('platform');
    expect(binding.subjects).toEqual([sa]);
    const env = theObject(objects, 'Deployment').spec.template.spec
      .containers[0].env;
    expect(env).toContainEqual({
      name: 'DBAAS_APISERVER_POLICY_CONFIGMAP',
      value: 'platform/limits',
    });
    expect(
      objects
        .filter(o => o.kind === 'ClusterRole')
        .some(r => allows(r, '', 'configmaps', 'get')),
    ).toBe(false);
  });

  it('leaves out the groups of engines turned off', () => {
    const objects = parseManifests(
      helmTemplate([
        '--set',
        'engines.redis=false,engines.elasticsearch=false',
      ]),
    );
    const narrowed = theObject(objects, 'ClusterRole', 'dbaas-apiserver');
    const groups = new Set(grants(narrowed).map(g => g.apiGroup));
    expect(groups.has('redis.redis.opstreelabs.in')).toBe(false);
    expect(groups.has('elasticsearch.k8s.elastic.co')).toBe(false);
    expect(groups.has('k8s.mariadb.com')).toBe(true);
    expect(groups.has('mysql.oracle.com')).toBe(true);
    expect(groups.has('rabbitmq.com')).toBe(true);
  });
});

describe('roles for people', () => {
  const G = 'dbaas.platform.dev';
  const byLabel = (label: string) =>
    plain.filter(
      o =>
        o.kind === 'ClusterRole' &&
        o.metadata.labels?.[`rbac.authorization.k8s.io/${label}`] === 'true',
    );

  it.each([
    [
      'aggregate-to-view',
      ['get', 'list', 'watch'],
      ['create', 'update', 'patch', 'delete', 'deletecollection'],
    ],
    [
      'aggregate-to-edit',
      ['create', 'update', 'patch', 'delete', 'deletecollection'],
      [],
    ],
  ])(
    '%s grants %j on databaseinstances and nothing else on it',
    (label, verbs, absent) => {
      const [role] = byLabel(label);
      expect(byLabel(label)).toHaveLength(1);
      for (const verb of verbs)
        expect(`${verb}:${allows(role, G, 'databaseinstances', verb)}`).toBe(
          `${verb}:true`,
        );
      for (const verb of absent)
        expect(`${verb}:${allows(role, G, 'databaseinstances', verb)}`).toBe(
          `${verb}:false`,
        );
      // beyond our group only reading the events (kubectl describe dbi), as Kubernetes' view does
      expect(
        grants(role)
          .filter(g => g.apiGroup !== G)
          .map(g => `${g.apiGroup}/${g.resource}:${g.verb}`)
          .sort(),
      ).toEqual(['/events:get', '/events:list', '/events:watch']);
    },
  );

  // Bound on its own (a RoleBinding to dbaas-edit alone), a role must not leave out reading:
  // Kubernetes' edit includes view and admin includes edit, and so do these.
  it.each([
    ['dbaas-edit', 'dbaas-view'],
    ['dbaas-admin', 'dbaas-edit'],
  ])('%s grants everything %s grants', (role, below) => {
    const upper = grants(theObject(plain, 'ClusterRole', role));
    const missing = grants(theObject(plain, 'ClusterRole', below)).filter(
      g => !upper.some(u => u.apiGroup === g.apiGroup && u.resource === g.resource && u.verb === g.verb),
    );
    expect(missing).toEqual([]);
  });

  it.each([
    ['dbaas-view', 'databasebackups', ['get', 'list', 'watch'], ['create', 'update', 'patch', 'delete']],
    ['dbaas-view', 'databasebackupschedules', ['get', 'list', 'watch'], ['create', 'update', 'patch', 'delete']],
    ['dbaas-edit', 'databasebackups', ['get', 'list', 'watch', 'create'], ['update', 'patch', 'delete']],
    ['dbaas-edit', 'databasebackupschedules', ['get', 'list', 'watch'], ['create', 'update', 'patch', 'delete']],
    ['dbaas-admin', 'databasebackups', ['get', 'list', 'watch', 'create', 'delete'], ['update', 'patch', 'deletecollection']],
    ['dbaas-admin', 'databasebackupschedules', ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['deletecollection']],
  ])('%s on %s may %j and may not %j', (name, resource, allowed, denied) => {
    const r = theObject(plain, 'ClusterRole', name);
    for (const verb of allowed) expect(`${verb}:${allows(r, G, resource, verb)}`).toBe(`${verb}:true`);
    for (const verb of denied) expect(`${verb}:${allows(r, G, resource, verb)}`).toBe(`${verb}:false`);
  });

  it('view also reads databaseengines (cluster-scoped, read-only)', () => {
    const [view] = byLabel('aggregate-to-view');
    for (const verb of ['get', 'list', 'watch'])
      expect(allows(view, G, 'databaseengines', verb)).toBe(true);
    for (const role of plain.filter(
      o => o.kind === 'ClusterRole' && o.metadata.name !== 'dbaas-apiserver',
    )) {
      for (const verb of ['create', 'update', 'patch', 'delete'])
        expect(allows(role, G, 'databaseengines', verb)).toBe(false);
    }
  });

  it('grants databaseinstances/connection only through admin and the connection reader', () => {
    const withConnection = plain
      .filter(
        o =>
          o.kind === 'ClusterRole' &&
          allows(o, G, 'databaseinstances/connection', 'get'),
      )
      .map(o => o.metadata.name)
      .sort();
    expect(withConnection).toEqual(['dbaas-admin', 'dbaas-connection-reader']);
    expect(byLabel('aggregate-to-admin').map(r => r.metadata.name)).toEqual([
      'dbaas-admin',
    ]);
  });

  it('lets every signed-in user read databaseengines (cluster-scoped: a RoleBinding cannot), unless turned off', () => {
    const reader = theObject(plain, 'ClusterRole', 'dbaas-engine-reader');
    expect(grants(reader)).toEqual(
      ['get', 'list', 'watch'].map(verb => ({ apiGroup: G, resource: 'databaseengines', verb })),
    );
    expect(theObject(plain, 'ClusterRoleBinding', 'dbaas-engine-reader')).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'dbaas-engine-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }],
    });
    const off = parseManifests(helmTemplate(['--set', 'userRoles.engineCatalogForAllUsers=false']));
    expect(off.filter(o => o.metadata.name === 'dbaas-engine-reader')).toEqual([]);
  });

  it('has a connection reader that aggregates nowhere and grants only connection get', () => {
    const reader = theObject(plain, 'ClusterRole', 'dbaas-connection-reader');
    expect(
      Object.keys(reader.metadata.labels ?? {}).filter(l =>
        l.startsWith('rbac.authorization.k8s.io/'),
      ),
    ).toEqual([]);
    expect(grants(reader)).toEqual([
      { apiGroup: G, resource: 'databaseinstances/connection', verb: 'get' },
    ]);
  });
});

describe('values', () => {
  it.each([
    ['certManager.enabled=maybe', /certManager\/enabled|certManager.enabled/],
    ['engines.oracle=true', /oracle/],
    ['replicaCount=0', /replicaCount/],
    ['extraArgs={not-a-flag}', /extraArgs/],
  ])('rejects --set %s', (setting, message) => {
    const r = run(helmBinary(), [
      'template',
      'dbaas',
      chartDir,
      '-n',
      'dbaas-system',
      '--set',
      setting,
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });

  it('renders no PodDisruptionBudget for a single replica (a drain would block forever)', () => {
    const objects = parseManifests(helmTemplate(['--set', 'replicaCount=1']));
    expect(objects.some(o => o.kind === 'PodDisruptionBudget')).toBe(false);
    expect(theObject(objects, 'Deployment').spec.replicas).toBe(1);
  });

  it('passes image, extra flags and scheduling values to the pod', () => {
    const objects = parseManifests(
      helmTemplate([
        '--set',
        'image.repository=registry.example.com/dbaas,image.tag=1.2.3,priorityClassName=platform-high',
        '--set',
        'extraArgs={--watch-history-seconds=900}',
        '--set',
        'nodeSelector.pool=system,podAnnotations.team=platform',
      ]),
    );
    const pod = theObject(objects, 'Deployment').spec.template;
    expect(pod.spec.containers[0].image).toBe(
      'registry.example.com/dbaas:1.2.3',
    );
    expect(pod.spec.containers[0].args).toContain(
      '--watch-history-seconds=900',
    );
    expect(pod.spec.priorityClassName).toBe('platform-high');
    expect(pod.spec.nodeSelector).toEqual({ pool: 'system' });
    expect(pod.metadata.annotations.team).toBe('platform');
  });

  it('defaults the image tag to the chart appVersion', () => {
    const chart = runOk(helmBinary(), ['show', 'chart', chartDir]);
    const appVersion = /appVersion: "?([^"\n]+)"?/.exec(chart)![1];
    expect(
      theObject(plain, 'Deployment').spec.template.spec.containers[0].image,
    ).toMatch(new RegExp(`:${appVersion}$`));
  });
});

describe('engineConfig', () => {
  const ENGINE_CONFIG = {
    engines: {
      mariadb: {
        versions: ['11.8', '11.4'],
        sizes: [
          {
            name: 'small',
            title: 'Small',
            storage: { size: '20Gi' },
            resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '2Gi' } },
          },
        ],
      },
    },
  };
  const MOUNT = '/etc/dbaas/engine-config';
  /** Renders with `engineConfig` from a values file, as a platform team would pass it. */
  function renderWith(engineConfig: unknown): K8sObject[] {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dbaas-values-'));
    try {
      const file = path.join(dir, 'values.yaml');
      writeFileSync(file, JSON.stringify({ engineConfig }));
      return parseManifests(helmTemplate(['-f', file]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('renders nothing and passes no flag by default', () => {
    expect(plain.some(o => o.kind === 'ConfigMap')).toBe(false);
    const pod = theObject(plain, 'Deployment').spec.template;
    expect(pod.spec.containers[0].args.some((a: string) => a.startsWith('--engine-config'))).toBe(false);
    expect(pod.metadata.annotations['checksum/engine-config']).toBeUndefined();
  });

  it('renders the values into a ConfigMap mounted into the pods and passed as --engine-config', () => {
    const objects = renderWith(ENGINE_CONFIG);
    const configMap = theObject(objects, 'ConfigMap', 'dbaas-apiserver-engine-config');
    expect(configMap.metadata.namespace).toBe('dbaas-system');
    const text = configMap.data['engines.yaml'];
    expect(parseManifests(text)).toEqual([ENGINE_CONFIG]);
    // What the apiserver itself checks at start accepts it.
    const problems = validateOptions(
      { ...defaultOptions(), tlsCertFile: '/c', tlsKeyFile: '/k', engineConfig: `${MOUNT}/engines.yaml` },
      { readFile: () => text },
    );
    expect(problems).toEqual([]);

    const pod = theObject(objects, 'Deployment').spec.template;
    const container = pod.spec.containers[0];
    expect(container.args).toContain(`--engine-config=${MOUNT}/engines.yaml`);
    const mount = container.volumeMounts.find((m: any) => m.mountPath === MOUNT);
    expect(mount).toMatchObject({ readOnly: true });
    expect(pod.spec.volumes.find((v: any) => v.name === mount.name)).toEqual({
      name: mount.name,
      configMap: { name: 'dbaas-apiserver-engine-config' },
    });
  });

  it('rolls the pods when the config changes (the apiserver reads it at start)', () => {
    const checksum = (config: unknown) =>
      theObject(renderWith(config), 'Deployment').spec.template.metadata.annotations['checksum/engine-config'];
    const narrower = { engines: { mariadb: { versions: ['11.8'] } } };
    expect(checksum(ENGINE_CONFIG)).toMatch(/^[0-9a-f]{64}$/);
    expect(checksum(narrower)).not.toBe(checksum(ENGINE_CONFIG));
  });

  it('is checked by the chart schema: the engines key, nothing else', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dbaas-values-'));
    try {
      const file = path.join(dir, 'values.yaml');
      writeFileSync(file, JSON.stringify({ engineConfig: { mariadb: { versions: ['11.4'] } } }));
      const r = run(helmBinary(), ['template', 'dbaas', chartDir, '-n', 'dbaas-system', '-f', file]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/engineConfig/);
      writeFileSync(file, JSON.stringify({ engineConfig: ENGINE_CONFIG }));
      const lint = run(helmBinary(), ['lint', '--strict', chartDir, '-f', file]);
      expect(lint.stderr + lint.stdout).toContain('0 chart(s) failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
