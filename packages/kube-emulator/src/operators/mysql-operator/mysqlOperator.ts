import type { StoredObject } from '../../store/types';
import { mysqlDemo } from './demo';
import { randomPassword, revisionHash } from '../dependentObjects';
import { count } from '../specHelpers';
import type {
  CustomKind,
  DesiredState,
  EmulatedOperator,
  Observation,
} from '../types';
import { mysqlBackups } from './backups';
import { INNODBCLUSTER_KIND } from './innodbClusterKind';
import { restoreFails } from '../restoreFate';

export { INNODBCLUSTER_KIND } from './innodbClusterKind';

/** The operator's default server version (mysqloperator/controller/config.py at 9.1.0-2.2.2). */
export const MYSQL_DEFAULT_VERSION = '9.1.0';

const spec = (cr: StoredObject): Record<string, any> =>
  (cr.spec as Record<string, any>) ?? {};

function desired(cr: StoredObject): DesiredState {
  const s = spec(cr);
  const name = cr.metadata.name;
  const version = s.version || MYSQL_DEFAULT_VERSION;
  const repo = s.imageRepository || 'container-registry.oracle.com/mysql';
  const edition = s.edition === 'enterprise' ? 'enterprise' : 'community';
  const labels = {
    'mysql.oracle.com/cluster': name,
    tier: 'mysql',
    'app.kubernetes.io/name': 'mysql-innodbcluster',
    'app.kubernetes.io/instance': `mysql-innodbcluster-${name}`,
  };
  const routerLabels = {
    ...labels,
    tier: 'mysqlrouter',
    'app.kubernetes.io/name': 'mysql-router',
  };
  return {
    version,
    statefulSets: [
      {
        name,
        replicas: count(s.instances, 1),
        revision: revisionHash({
          version,
          edition,
          repo,
          podSpec: s.podSpec,
          datadir: s.datadirVolumeClaimTemplate,
        }),
        image: `${repo}/${edition}-server:${version}`,
        serviceName: `${name}-instances`,
        labels: { ...labels, component: 'mysqld', 'mysql.oracle.com/instance-type': 'group-member' },
        // the operator labels each ONLINE member with its Group Replication role; the first is
        // the primary in this emulation
        podLabels: (_pod, i) => ({ 'mysql.oracle.com/cluster-role': i === 0 ? 'PRIMARY' : 'SECONDARY' }),
        container: 'mysql',
        claim: {
          name: pod => `datadir-${pod}`,
          size: s.datadirVolumeClaimTemplate?.resources?.requests?.storage,
          storageClassName: s.datadirVolumeClaimTemplate?.storageClassName,
        },
      },
    ],
    deployments: [
      {
        name: `${name}-router`,
        replicas: count(s.router?.instances, 1),
        image: `${repo}/${edition}-router:${s.router?.version || version}`,
        labels: routerLabels,
      },
    ],
    services: [
      {
        name,
        selector: routerLabels,
        ports: [
          { name: 'mysql', port: 3306 },
          { name: 'mysqlx', port: 33060 },
          { name: 'mysql-alternate', port: 6446 },
          { name: 'mysqlx-alternate', port: 6448 },
          { name: 'mysql-ro', port: 6447 },
          { name: 'mysqlx-ro', port: 6449 },
          { name: 'mysql-rw-split', port: 6450 },
          { name: 'router-rest', port: 8443 },
        ],
      },
      {
        name: `${name}-instances`,
        headless: true,
        selector: labels,
        ports: [
          { name: 'mysql', port: 3306 },
          { name: 'mysqlx', port: 33060 },
          { name: 'gr-xcom', port: 33061 },
        ],
      },
    ],
    secrets: [
      // The user Secret is normally created by the user; the emulator creates it when missing.
      ...(s.secretName
        ? [
            {
              name: s.secretName,
              data: () => ({
                rootUser: 'root',
                rootHost: '%',
                rootPassword: randomPassword(),
              }),
            },
          ]
        : []),
      {
        name: `${name}-privsecrets`,
        labels,
        data: () => ({
          clusterAdminUsername: 'mysqladmin',
          clusterAdminPassword: randomPassword(),
        }),
      },
      {
        name: `${name}-router`,
        labels,
        data: () => ({
          routerUsername: 'mysqlrouter',
          routerPassword: randomPassword(),
        }),
      },
    ],
  };
}

/** ClusterDiagStatus for a stage (mysqloperator/controller/diagnose.py names). */
function diagStatus(obs: Observation): string {
  switch (obs.stage) {
    case 'ready':
    case 'updating':
      // During a scale or rolling restart the members in the group stay ONLINE; onlineInstances lags.
      return 'ONLINE';
    case 'degraded':
      return 'ONLINE_PARTIAL';
    case 'failed':
      return obs.readyReplicas > 0 ? 'NO_QUORUM' : 'OFFLINE';
    case 'deleting':
      return 'FINALIZING';
    default:
      return obs.readyReplicas > 0 ? 'INITIALIZING' : 'PENDING';
  }
}

function status(
  cr: StoredObject,
  _kind: CustomKind,
  obs: Observation,
): Record<string, unknown> {
  const previous = (cr.status as Record<string, any>) ?? {};
  const clusterStatus = diagStatus(obs);
  const onlineInstances =
    obs.stage === 'failed' || obs.stage === 'deleting' ? 0 : obs.readyReplicas;
  const unchanged =
    previous.cluster?.status === clusterStatus &&
    previous.cluster?.onlineInstances === onlineInstances;
  return {
    ...previous,
    cluster: {
      status: clusterStatus,
      onlineInstances,
      // Only re-stamped when the diagnosis changes, so a quiet cluster is not rewritten every round.
      lastProbeTime: unchanged ? previous.cluster.lastProbeTime : obs.now,
    },
    createTime: previous.createTime ?? obs.createTime,
    ...(obs.runningVersion ? { version: obs.runningVersion } : {}),
  };
}

/** Emulated Oracle mysql-operator: StatefulSet `<n>`, Deployment `<n>-router`, Services `<n>` and `<n>-instances`. */
export const mysqlOperator: EmulatedOperator = {
  demo: mysqlDemo,
  id: 'mysql-operator',
  kinds: [INNODBCLUSTER_KIND],
  finalizer: () => 'mysql.oracle.com/cluster',
  desired: cr => desired(cr),
  status,
  backups: mysqlBackups,
  // the seed pod loads spec.initDB.dump before the cluster exists (sidecar_main.py bootstrap); a
  // failing load exits its container, which is restarted to load again, and the status stays PENDING
  heldBack: cr => (restoreFails(cr) && spec(cr).initDB?.dump ? 'crash-loop' : undefined),
};
