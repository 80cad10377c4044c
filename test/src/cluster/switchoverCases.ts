import { eventually } from '../support/eventually';
import { parseTable } from '../support/kubectl';
import type { Kubectl } from './Kubectl';

const GROUP = 'dbaas.platform.dev';
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const ready = (reason: string, message: string) => ({ type: 'Ready', status: 'True', reason, message, lastTransitionTime: now() });

/** One engine's switchover as the suite plays its operator: the pods it runs, its status before and after. */
export interface SwitchoverCase {
  engine: 'postgresql' | 'mariadb';
  name: string;
  resource: string;
  pods: string[];
  from: string;
  to: string;
  /** The labels the operator sets on a member pod (`primary`: whether it is the primary). */
  labels(pod: string, primary: boolean): Record<string, string>;
  /** The operator's status with `primary` as its primary. */
  status(primary: string): Record<string, unknown>;
  /** What the switchover request writes into the operator object (a part of it), as the operator reads it. */
  asked: Record<string, unknown>;
}

export const SWITCHOVER_CASES: SwitchoverCase[] = [
  {
    engine: 'postgresql',
    name: 'conf-switch-pg',
    resource: 'clusters.postgresql.cnpg.io',
    pods: ['conf-switch-pg-1', 'conf-switch-pg-2', 'conf-switch-pg-3'],
    from: 'conf-switch-pg-1',
    to: 'conf-switch-pg-3',
    // pkg/specs/pods.go
    labels: (pod, primary) => ({
      'cnpg.io/cluster': 'conf-switch-pg',
      'cnpg.io/podRole': 'instance',
      'cnpg.io/instanceName': pod,
      'cnpg.io/instanceRole': primary ? 'primary' : 'replica',
      role: primary ? 'primary' : 'replica',
    }),
    status: primary => ({
      phase: 'Cluster in healthy state',
      instances: 3,
      readyInstances: 3,
      instanceNames: ['conf-switch-pg-1', 'conf-switch-pg-2', 'conf-switch-pg-3'],
      currentPrimary: primary,
      targetPrimary: primary,
      conditions: [ready('ClusterIsReady', 'Cluster is Ready')],
    }),
    // what kubectl cnpg promote writes (internal/cmd/plugin/promote)
    asked: {
      status: {
        targetPrimary: 'conf-switch-pg-3',
        currentPrimary: 'conf-switch-pg-1',
        phase: 'Switchover in progress',
        phaseReason: 'Switching over to conf-switch-pg-3',
      },
    },
  },
  {
    engine: 'mariadb',
    name: 'conf-switch-mdb',
    resource: 'mariadbs.k8s.mariadb.com',
    pods: ['conf-switch-mdb-0', 'conf-switch-mdb-1', 'conf-switch-mdb-2'],
    from: 'conf-switch-mdb-0',
    to: 'conf-switch-mdb-2',
    // pkg/builder/labels: the StatefulSet's pod labels
    labels: () => ({ 'app.kubernetes.io/name': 'mariadb', 'app.kubernetes.io/instance': 'conf-switch-mdb' }),
    status: primary => ({
      conditions: [ready('StatefulSetReady', 'Running')],
      replicas: 3,
      currentPrimary: primary,
      currentPrimaryPodIndex: Number(primary.split('-').at(-1)),
      replication: {
        roles: Object.fromEntries(['conf-switch-mdb-0', 'conf-switch-mdb-1', 'conf-switch-mdb-2'].map(p => [p, p === primary ? 'Primary' : 'Replica'])),
      },
    }),
    asked: { spec: { replication: { primary: { podIndex: 2 } } }, status: { currentPrimaryPodIndex: 0 } },
  },
];

/** What a switchover showed, for the conformance case to check. */
export interface SwitchoverSeen {
  /** The operator object right after the write. */
  asked: Record<string, any>;
  /** The instance's status while the operator has not reported the switchover. */
  moving: Record<string, any>;
  /** spec.primary as served then. */
  primary: string;
  /** The primary member and -o wide's PRIMARY once the operator reported it, and Ready. */
  after: { member: string; wide: string };
}

/**
 * A switchover through `spec.primary` on a cluster where no operator runs: the suite plays the
 * operator, writing the member pods (scheduling-gated, their status written by the suite) and
 * the operator's status, before and after; the instance and its pods are deleted afterwards.
 */
export async function runSwitchover(kubectl: Kubectl, ns: string, c: SwitchoverCase): Promise<SwitchoverSeen> {
  const status = async () => (await kubectl.json(['get', 'dbi', c.name, '-n', ns])).status;
  const primaryOf = async () => (await status()).members?.find((m: any) => m.role === 'primary')?.name;
  const sa = await kubectl.run(['create', 'serviceaccount', 'default', '-n', ns]);
  if (sa.code !== 0 && !/AlreadyExists|already exists/.test(sa.stderr)) throw new Error(`create serviceaccount default: ${sa.stderr}`);
  const pod = (name: string, primary: boolean) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: c.labels(name, primary) },
    // gated: no scheduler binds it and no kubelet rewrites the status the suite writes
    spec: { schedulingGates: [{ name: 'dbaas.platform.dev/conformance' }], containers: [{ name: 'db', image: 'registry.k8s.io/pause:3.9' }] },
  });
  const operatorStatus = (primary: string) =>
    kubectl.ok(['patch', c.resource, c.name, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: c.status(primary) })]);
  try {
    await kubectl.ok(
      ['create', '-f', '-'],
      JSON.stringify({ apiVersion: `${GROUP}/v1alpha1`, kind: 'DatabaseInstance', metadata: { name: c.name, namespace: ns }, spec: { engine: c.engine, topology: 'replication', replicas: 3 } }),
    );
    await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: c.pods.map(p => pod(p, p === c.from)) }));
    for (const p of c.pods)
      await kubectl.ok(['patch', 'pod', p, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now() }] } })]);
    await operatorStatus(c.from);
    await eventually(async () => {
      const s = await status();
      return s.phase === 'Ready' && s.members?.every((m: any) => m.ready) && (await primaryOf()) === c.from ? true : undefined;
    }, `${c.name} Ready with ${c.from} primary`);

    await kubectl.ok(['patch', 'dbi', c.name, '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { primary: c.to } })]);
    const asked = await kubectl.json(['get', c.resource, c.name, '-n', ns]);
    const moving = await eventually(async () => {
      const s = await status();
      return s.phase === 'Updating' ? s : undefined;
    }, `${c.name} Updating`);
    const primary = (await kubectl.json(['get', 'dbi', c.name, '-n', ns])).spec.primary;

    // the operator, done: the new primary in its status and on its pods
    for (const p of c.pods)
      await kubectl.ok(['label', 'pod', p, '-n', ns, '--overwrite', ...Object.entries(c.labels(p, p === c.to)).map(([k, v]) => `${k}=${v}`)]);
    await operatorStatus(c.to);
    const member = await eventually(async () => ((await status()).phase === 'Ready' && (await primaryOf()) === c.to ? c.to : undefined), `${c.name} Ready with ${c.to} primary`);
    const wide = parseTable(await kubectl.ok(['get', 'dbi', c.name, '-n', ns, '-o', 'wide']))[0].PRIMARY;
    return { asked, moving, primary, after: { member, wide } };
  } finally {
    await kubectl.run(['delete', 'pod', ...c.pods, '-n', ns, '--grace-period=0', '--force', '--ignore-not-found']);
    await kubectl.run(['delete', 'dbi', c.name, '-n', ns, '--ignore-not-found', '--timeout=30s']);
  }
}
