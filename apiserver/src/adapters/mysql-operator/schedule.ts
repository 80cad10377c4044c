import type { DatabaseBackupSchedule } from '@internal/plugin-databases-common';
import { childUid } from '../../cache/expandingInformer';
import { forbidden, invalid, type FieldCause } from '../../writes/FieldCause';
import { nextScheduledRun } from '../shared/cron';
import { cronJobType } from '../shared/cronJobType';
import { ownedBy } from '../shared/ownedBy';
import { toSchedule } from '../shared/toSchedule';
import { asArray, asRecord, asString, nameOf, namespaceOf } from '../shared/read';
import type { KubeObject, RelatedLookup, ScheduleSide, SourceKind } from '../types';
import { mysqlBackups, profileNames } from './backup';

/**
 * mysql-operator's schedules (9.1.0-2.2.2): entries of the InnoDBCluster's
 * `spec.backupSchedules[]` (`name`, `schedule` a cron, `backupProfileName` or an inline
 * `backupProfile`, `enabled` default true, `deleteBackupData`, `timeZone`). For each, the
 * operator keeps a CronJob `<cluster>-<name>-cb` adopted by the cluster, `suspend: !enabled`
 * (backup_objects.py update_schedules, patch_cron_template_for_backup_schedule); each run is a
 * Job that creates a MySQLBackup `<cluster>-<name><YYMMDDhhmmss>` (backup_job_name), served as a
 * DatabaseBackup with its own phase. So a schedule's status says when the CronJob last fired and
 * fires next; whether a run succeeded is its DatabaseBackup's to say (the CronJob's own success
 * is only that the MySQLBackup was made). No retention: the operator deletes no backups.
 *
 * One InnoDBCluster holds several schedules: its objects expand to one entry object each
 * (`<cluster>-<entry>`, SourceKind.expand), and writes change the cluster's list (`embedded`).
 */
const OPERATOR = 'mysql-operator';
const API_VERSION = 'mysql.oracle.com/v2';

/** What an entry object keeps of its cluster: identity and the schedules with the profiles' names. */
function slimCluster(cluster: KubeObject): KubeObject {
  const meta = cluster.metadata ?? {};
  const spec = asRecord(cluster.spec) ?? {};
  return {
    apiVersion: cluster.apiVersion,
    kind: cluster.kind,
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: {
      ...(spec.backupSchedules !== undefined && { backupSchedules: spec.backupSchedules }),
      backupProfiles: profileNames(cluster).map(name => ({ name })),
    },
  };
}

const entriesOf = (cluster: KubeObject): Record<string, any>[] =>
  asArray(asRecord(cluster.spec)?.backupSchedules)
    .map(asRecord)
    .filter((e): e is Record<string, any> => !!asString(e?.name));

/** One entry as an object of its own, named as served. */
function entryObject(cluster: KubeObject, entry: Record<string, any>): KubeObject {
  const name = nameOf(cluster);
  return {
    apiVersion: API_VERSION,
    kind: 'InnoDBCluster',
    metadata: {
      name: `${name}-${entry.name}`,
      namespace: namespaceOf(cluster),
      uid: childUid(cluster.metadata?.uid ?? '', entry.name),
      ...(cluster.metadata?.creationTimestamp && { creationTimestamp: cluster.metadata.creationTimestamp }),
    },
    spec: { clusterName: name, ...(cluster.metadata?.uid && { clusterUid: cluster.metadata.uid }), entry },
  };
}

export const MYSQL_SCHEDULES: SourceKind = {
  group: 'mysql.oracle.com',
  version: 'v2',
  plural: 'innodbclusters',
  kind: 'InnoDBCluster',
  topologies: [],
  slim: slimCluster,
  expand: cluster => entriesOf(cluster).map(e => entryObject(cluster, e)),
};

/** The entry a served name `<cluster>-<entry>` stands for in `cluster`; empty when it stands for none. */
const entryNameIn = (name: string, cluster: KubeObject) => {
  const prefix = `${nameOf(cluster)}-`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : '';
};

const entryOf = (o: KubeObject) => asRecord(asRecord(o.spec)?.entry) ?? {};
const clusterOf = (o: KubeObject) => asString(asRecord(o.spec)?.clusterName) ?? '';
const cronJobName = (o: KubeObject) => `${nameOf(o)}-cb`;

function runState(source: KubeObject, related: RelatedLookup) {
  const candidate = related.get({ type: cronJobType, namespace: namespaceOf(source), name: cronJobName(source) });
  const cluster: KubeObject = { metadata: { name: clusterOf(source), uid: asString(asRecord(source.spec)?.clusterUid) } };
  const cronJob = candidate && ownedBy(candidate, cluster, 'InnoDBCluster') ? candidate : undefined;
  const status = asRecord(cronJob?.status) ?? {};
  return { cronJob, lastScheduleTime: asString(status.lastScheduleTime), active: asArray(status.active).length > 0 };
}

function reasonOf(entry: Record<string, any>, run: ReturnType<typeof runState>, name: string): { reason: string; message?: string } {
  if (entry.enabled === false) return { reason: 'Suspended', message: `spec.backupSchedules[name=${entry.name}].enabled is false: no new runs start` };
  if (!run.cronJob) return { reason: 'WaitingForOperator', message: `The operator has not made the CronJob ${name}-cb of this schedule yet` };
  if (run.active) return { reason: 'Running', message: `CronJob ${name}-cb is making this run's MySQLBackup (a DatabaseBackup named ${name} and the time)` };
  return { reason: 'Scheduled' };
}

/** The entry `entryObject`'s spec asks for (a 5-field cron in UTC, the profile, enabled). */
function entryFor(name: string, spec: DatabaseBackupSchedule['spec'], target: KubeObject, old: Record<string, any> = {}): Record<string, any> {
  const { backupProfileName: _profile, ...rest } = old;
  const profile = spec.method ?? (old.backupProfile ? undefined : asString(old.backupProfileName) ?? profileNames(target)[0]);
  return {
    ...rest,
    name,
    schedule: spec.schedule.trim(),
    ...(profile !== undefined && { backupProfileName: profile }),
    enabled: spec.suspend !== true,
    // the API's crons are UTC; without a zone the CronJob follows kube-controller-manager's
    timeZone: 'Etc/UTC',
  };
}

export const mysqlSchedules: ScheduleSide = {
  kinds: [MYSQL_SCHEDULES],
  relatedTypes: [cronJobType],
  relatedRefs: source => [{ type: cronJobType, namespace: namespaceOf(source), name: cronJobName(source) }],
  project(source, kind, related): DatabaseBackupSchedule {
    const entry = entryOf(source);
    const cluster = clusterOf(source);
    const suspended = entry.enabled === false;
    const run = runState(source, related);
    const next = nextScheduledRun({
      cron: asString(entry.schedule) ?? '',
      suspended,
      timeZone: asString(entry.timeZone),
      lastScheduleTime: run.lastScheduleTime,
      createdAt: asString(source.metadata?.creationTimestamp),
    });
    return toSchedule({
      operator: OPERATOR,
      engine: 'mysql',
      kind,
      source,
      // an entry carries no labels or annotations of its own
      metadata: {
        name: nameOf(source),
        namespace: namespaceOf(source),
        ...(source.metadata?.uid && { uid: source.metadata.uid }),
        ...(source.metadata?.creationTimestamp && { creationTimestamp: source.metadata.creationTimestamp }),
      },
      sourceName: cluster,
      instanceName: cluster,
      schedule: asString(entry.schedule) ?? '',
      suspend: suspended,
      method: asString(entry.backupProfileName),
      lastScheduleTime: run.lastScheduleTime,
      nextScheduleTime: next,
      ...reasonOf(entry, run, nameOf(source)),
    });
  },
  validate(spec, target): FieldCause[] {
    return [
      ...(spec.retention !== undefined
        ? [forbidden('spec.retention', 'mysql-operator deletes no backups: each run is a MySQLBackup kept until it is deleted (a DatabaseBackup delete); leave spec.retention out')]
        : []),
      ...mysqlBackups.validate({ instanceRef: spec.instanceRef, ...(spec.method !== undefined && { method: spec.method }) }, target),
    ];
  },
  toOperatorObject(schedule, target) {
    return entryObject(target, entryFor(entryNameIn(schedule.metadata.name ?? '', target), schedule.spec, target));
  },
  applyUpdate(current, spec) {
    const old = entryOf(current);
    const target: KubeObject = { metadata: { name: clusterOf(current) }, spec: {} };
    return { ...current, spec: { ...(current.spec as object), entry: entryFor(String(old.name), spec, target, old) } };
  },
  embedded: {
    entryName(name, target) {
      const prefix = `${nameOf(target)}-`;
      const entry = entryNameIn(name, target);
      if (entry) return { entry };
      return {
        cause: invalid(
          'metadata.name',
          name,
          `mysql-operator keeps schedules as entries of InnoDBCluster ${nameOf(target)}'s spec.backupSchedules: a schedule of it is named ${prefix}<schedule>, e.g. ${prefix}daily`,
        ),
      };
    },
    instanceOf: clusterOf,
    specPatch(target, name, object) {
      const entry = entryNameIn(name, target);
      const others = entriesOf(target);
      const at = others.findIndex(e => e.name === entry);
      const list = object ? [...others] : others.filter(e => e.name !== entry);
      if (object) list.splice(at < 0 ? list.length : at, at < 0 ? 0 : 1, entryOf(object));
      return { backupSchedules: list.length ? list : null };
    },
    noMetadata: 'mysql-operator keeps schedules as entries of the InnoDBCluster\'s spec.backupSchedules, which carry no labels or annotations',
  },
};
