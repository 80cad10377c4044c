import {
  DATABASE_BACKUP_SCHEDULE_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseBackupSchedule,
} from '@internal/plugin-databases-common';
import { decodeBody, type KnownFields } from './decodeBackup';
import type { FieldValidation } from './writeOptions';

/** The fields a DatabaseBackupSchedule has (status is the server's: accepted and dropped). */
const KNOWN: KnownFields = {
  '': ['apiVersion', 'kind', 'metadata', 'spec', 'status'],
  spec: ['instanceRef', 'schedule', 'suspend', 'retention', 'method'],
  'spec.instanceRef': ['name'],
};

/**
 * A DatabaseBackupSchedule body (create, update, a patched object), decoded as kube-apiserver
 * decodes a custom resource (decodeBody). The spec's values are passed on as sent: their types
 * are checked by validation, which names each bad field.
 */
export function decodeSchedule(raw: unknown, fieldValidation: FieldValidation): { schedule: DatabaseBackupSchedule; warnings: string[] } {
  const { metadata, spec, warnings } = decodeBody(raw, DATABASE_BACKUP_SCHEDULE_KIND, KNOWN, fieldValidation);
  const optional = (key: 'suspend' | 'retention' | 'method') => (spec[key] !== undefined && spec[key] !== null ? { [key]: spec[key] } : {});
  return {
    schedule: {
      apiVersion: DATABASES_GROUP_VERSION,
      kind: DATABASE_BACKUP_SCHEDULE_KIND,
      metadata,
      spec: {
        instanceRef: (spec.instanceRef ?? undefined) as DatabaseBackupSchedule['spec']['instanceRef'],
        schedule: spec.schedule as string,
        ...optional('suspend'),
        ...optional('retention'),
        ...optional('method'),
      } as DatabaseBackupSchedule['spec'],
    },
    warnings,
  };
}
