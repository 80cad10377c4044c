import type { Condition, DatabaseBackupSchedule, DatabaseEngineName, ObjectMeta } from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../types';
import { nameOf } from './read';
import { backupObjectMetadata } from './toBackup';

/** What an adapter read of one schedule, before it is wrapped into a DatabaseBackupSchedule. */
export interface ScheduleParts {
  /** Adapter id (`mariadb-operator`). */
  operator: string;
  engine: DatabaseEngineName;
  kind: SourceKind;
  source: KubeObject;
  /** Default: the source's (backupObjectMetadata). */
  metadata?: ObjectMeta;
  /** The operator object named in `status.source` (default: the source; an entry's: its cluster). */
  sourceName?: string;
  instanceName: string;
  schedule: string;
  suspend: boolean;
  method?: string;
  retention?: string;
  lastScheduleTime?: string;
  nextScheduleTime?: string;
  lastSuccessfulTime?: string;
  lastFailedTime?: string;
  reason: string;
  message?: string;
  /** Attach the operator object's status untouched (where it is the schedule's own). */
  withOperatorStatus?: boolean;
  conditions?: Condition[];
}

/** The DatabaseBackupSchedule of one operator schedule, as toBackup is of one run. */
export function toSchedule(p: ScheduleParts): DatabaseBackupSchedule {
  const { kind, source } = p;
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackupSchedule',
    metadata: p.metadata ?? backupObjectMetadata(source),
    spec: {
      instanceRef: { name: p.instanceName },
      schedule: p.schedule,
      suspend: p.suspend,
      ...(p.method !== undefined && { method: p.method }),
      ...(p.retention !== undefined && { retention: p.retention }),
    },
    status: {
      engine: p.engine,
      ...(p.lastScheduleTime && { lastScheduleTime: p.lastScheduleTime }),
      ...(p.nextScheduleTime && { nextScheduleTime: p.nextScheduleTime }),
      ...(p.lastSuccessfulTime && { lastSuccessfulTime: p.lastSuccessfulTime }),
      ...(p.lastFailedTime && { lastFailedTime: p.lastFailedTime }),
      reason: p.reason,
      ...(p.message !== undefined && { message: p.message }),
      source: { apiVersion: `${kind.group}/${kind.version}`, kind: kind.kind, name: p.sourceName ?? nameOf(source), operator: p.operator },
      ...(p.withOperatorStatus && source.status !== undefined && { operatorStatus: source.status }),
      ...(p.conditions && { conditions: p.conditions }),
    },
  };
}
