import type { PhaseFacts } from '../../status/facts';
import { toInstance } from '../../status/toInstance';
import { mysqlRestore } from './restore';
import { adapterBasics } from '../shared/adapterBasics';
import { claimStorageOf } from '../shared/storageOf';
import type { KubeObject, OperatorAdapter, SourceKind } from '../types';
import { mysqlWriteSide } from './write';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  nameOf,
  namespaceOf,
  pascalCase,
  resourcesOf,
  serviceEndpoint,
  deletionProtectionOf,
} from '../shared/read';
import { mysqlBackups } from './backup';
import { mysqlSchedules } from './schedule';
import { mysqlFindings } from './findings';
import { withMembers } from '../shared/members';
import { mysqlMembers } from './members';
import { dumpLoadFailure } from './dumpLoadFailure';

const INNODB_CLUSTER: SourceKind = {
  group: 'mysql.oracle.com',
  version: 'v2',
  plural: 'innodbclusters',
  kind: 'InnoDBCluster',
  topologies: ['innodbcluster'],
};

/** MySQL Router's classic-protocol ports on the `<name>` Service. */
const ROUTER_RW_PORT = 6446;
const ROUTER_RO_PORT = 6447;

/**
 * `status.cluster.status` (mysqloperator/controller/diagnose.py ClusterDiagStatus) → facts.
 * The CRD's status is schemaless, so anything else is kept for humans and yields Unknown.
 */
export function mysqlFacts(source: KubeObject): PhaseFacts {
  const spec = asRecord(source.spec) ?? {};
  const status = asRecord(source.status) ?? {};
  const cluster = asRecord(status.cluster) ?? {};
  const diag = asString(cluster.status);
  const desired = asNumber(spec.instances) ?? 1;
  const online = asNumber(cluster.onlineInstances);
  const facts: PhaseFacts = {
    deleting:
      source.metadata?.deletionTimestamp !== undefined || diag === 'FINALIZING',
    // Even kopf's own bookkeeping (status.kopf) shows the operator picked the object up.
    hasStatus: Object.keys(status).length > 0,
    onceReady: false,
    replicas: online === undefined ? { desired } : { desired, ready: online },
  };
  const said = diag ? `Cluster status ${diag}` : undefined;
  switch (diag) {
    case 'ONLINE':
      facts.operatorReady = true;
      facts.onceReady = true;
      break;
    case 'ONLINE_PARTIAL':
    case 'ONLINE_UNCERTAIN':
      // Quorum holds and clients are served, but not every member is ONLINE (or reachable).
      facts.onceReady = true;
      facts.unhealthy = { reason: pascalCase(diag), message: said };
      break;
    case 'PENDING':
    case 'INITIALIZING':
      facts.progress = { reason: pascalCase(diag), message: said };
      break;
    case 'OFFLINE':
    case 'OFFLINE_UNCERTAIN':
    case 'NO_QUORUM':
    case 'NO_QUORUM_UNCERTAIN':
    case 'SPLIT_BRAIN':
    case 'SPLIT_BRAIN_UNCERTAIN':
    case 'INVALID':
      facts.error = { reason: pascalCase(diag), message: said };
      break;
    case 'FINALIZING':
      break;
    case undefined:
      // Status without the cluster diagnosis: picked up, first probe not yet published.
      facts.progress = { reason: 'AwaitingClusterStatus' };
      break;
    default:
      // UNKNOWN and values newer than this adapter: no verdict, and the member count that
      // came with it cannot be trusted either.
      facts.indeterminate = { reason: pascalCase(diag), message: said };
      facts.replicas = { desired };
  }
  // a new cluster created from a dump (spec.initDB.dump): its first instance loads the dump
  // before the cluster is created, so until it is first ONLINE the work under way is the restore
  const dump = asString(asRecord(asRecord(spec.initDB)?.dump)?.name);
  if (dump && facts.progress && !facts.onceReady)
    facts.progress = { reason: 'Restoring', message: `Loading dump ${dump} (spec.initDB.dump)${said ? `: ${said}` : ''}` };
  return facts;
}

function mysqlResources(spec: Record<string, any>) {
  const containers = asArray(asRecord(spec.podSpec)?.containers);
  const mysql = containers.map(asRecord).find(c => c?.name === 'mysql');
  return resourcesOf(mysql?.resources);
}

const specStorage = (spec: Record<string, any>) =>
  claimStorageOf(spec.datadirVolumeClaimTemplate);

/**
 * Oracle MySQL Operator: InnoDBCluster (Group Replication + MySQL Router).
 * Capability level: the operator is not listed on OperatorHub and its README documents none,
 * so 2 (Seamless Upgrades: it rolls server/router versions from spec.version) is our own rating.
 */
export const mysqlOperatorAdapter: OperatorAdapter = withMembers({
  // 9.1.0 is the default at 9.1.0-2.2.2; 8.4 and 8.0 are the LTS lines it supports (>= 8.0.27).
  ...adapterBasics(mysqlWriteSide(INNODB_CLUSTER), [INNODB_CLUSTER]),
  capabilityLevel: 2,
  // The server pods (tier mysql; the routers are tier mysqlrouter) and their datadir claims.
  memberSelectors: source => [
    { 'mysql.oracle.com/cluster': nameOf(source), tier: 'mysql' },
  ],
  findings: mysqlFindings,
  backups: { ...mysqlBackups, schedules: mysqlSchedules },
  project(source, kind, related) {
    const spec = asRecord(source.spec) ?? {};
    const facts = mysqlFacts(source);
    dumpLoadFailure(source, facts, mysqlMembers.pods, related);
    const status = asRecord(source.status) ?? {};
    const name = nameOf(source);
    const ns = namespaceOf(source);
    const secretName = asString(spec.secretName);
    return toInstance({
      operator: 'mysql-operator',
      engine: 'mysql',
      kind,
      source,
      spec: {
        version: asString(spec.version),
        topology: 'innodbcluster',
        replicas: asNumber(spec.instances) ?? 1,
        storage: specStorage(spec),
        resources: mysqlResources(spec),
        deletionProtection: deletionProtectionOf(source),
        restoreFrom: mysqlRestore.read(source),
      },
      facts,
      version: asString(status.version),
      endpoints: [
        serviceEndpoint('primary', name, ns, ROUTER_RW_PORT),
        serviceEndpoint('readonly', name, ns, ROUTER_RO_PORT),
      ],
      credentialsSecretRef: secretName ? { name: secretName } : undefined,
    });
  },
}, mysqlMembers);
