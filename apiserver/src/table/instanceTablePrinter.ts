import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { age } from './humanDuration';
import type { TablePrinter } from './types';

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.';

/**
 * READY as `ready/desired`, like StatefulSets print it; `?` where the operator does not report
 * how many are ready (a `0/3` next to `Ready` would be a lie).
 */
export function readyCell(obj: DatabaseInstance): string {
  const desired = obj.status?.replicas?.desired ?? obj.spec?.replicas;
  const ready = obj.status?.replicas?.ready ?? '?';
  return desired === undefined ? '' : `${ready}/${desired}`;
}

/** The primaries' names; empty where all members are equal (Galera, Elasticsearch, RabbitMQ). */
export function primaryCell(obj: DatabaseInstance): string {
  return (obj.status?.members ?? [])
    .filter(m => m.role === 'primary')
    .map(m => m.name)
    .join(',');
}

/** `kubectl get databaseinstances` columns; priority 1 ones appear with `-o wide`. */
export const instanceTablePrinter: TablePrinter<DatabaseInstance> = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    { name: 'Engine', type: 'string', format: '', description: 'Database engine (spec.engine).', priority: 0 },
    {
      name: 'Version',
      type: 'string',
      format: '',
      description: 'Running engine version (status.version), else the requested one (spec.version).',
      priority: 0,
    },
    { name: 'Phase', type: 'string', format: '', description: 'Lifecycle phase (status.phase).', priority: 0 },
    { name: 'Ready', type: 'string', format: '', description: 'Ready replicas / desired replicas.', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: AGE_DESCRIPTION, priority: 0 },
    { name: 'Topology', type: 'string', format: '', description: 'Topology (spec.topology).', priority: 1 },
    {
      name: 'Primary',
      type: 'string',
      format: '',
      description: 'The member(s) in the primary role (status.members; one per shard for a Redis cluster).',
      priority: 1,
    },
    {
      name: 'Operator',
      type: 'string',
      format: '',
      description: 'Upstream operator serving the instance (status.source.operator).',
      priority: 1,
    },
    { name: 'Endpoint', type: 'string', format: '', description: 'First endpoint, host:port.', priority: 1 },
    { name: 'Reason', type: 'string', format: '', description: 'Why the instance is in its phase (status.reason).', priority: 1 },
  ],
  ageCells: obj => [{ index: 5, since: obj.metadata.creationTimestamp }],
  cells(obj, now) {
    const ep = obj.status?.endpoints?.[0];
    return [
      obj.metadata.name ?? '',
      obj.spec?.engine ?? '',
      obj.status?.version ?? obj.spec?.version ?? '',
      obj.status?.phase ?? '',
      readyCell(obj),
      age(obj.metadata.creationTimestamp, now),
      obj.spec?.topology ?? '',
      primaryCell(obj),
      obj.status?.source?.operator ?? '',
      ep ? `${ep.host}:${ep.port}` : '',
      obj.status?.reason ?? '',
    ];
  },
};
