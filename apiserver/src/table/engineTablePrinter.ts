import type { DatabaseEngine } from '@internal/plugin-databases-common';
import { age } from './humanDuration';
import { instanceTablePrinter } from './instanceTablePrinter';
import type { TablePrinter } from './types';

const [nameColumn] = instanceTablePrinter.columns;
const ageColumn = instanceTablePrinter.columns.find(c => c.name === 'Age')!;

/** `kubectl get databaseengines` columns. */
export const engineTablePrinter: TablePrinter<DatabaseEngine> = {
  columns: [
    { ...nameColumn, description: 'Name must be unique. The engine name, e.g. mariadb.' },
    { name: 'Installed', type: 'boolean', format: '', description: 'Whether the operator CRDs are served in this cluster.', priority: 0 },
    { name: 'Operator', type: 'string', format: '', description: 'Upstream operator project.', priority: 0 },
    { name: 'Level', type: 'integer', format: '', description: 'OperatorHub capability level (1-5).', priority: 0 },
    { name: 'Instances', type: 'integer', format: '', description: 'Number of instances of this engine.', priority: 0 },
    ageColumn,
    { name: 'Topologies', type: 'string', format: '', description: 'Topologies the engine offers.', priority: 1 },
    { name: 'Versions', type: 'string', format: '', description: 'Versions the engine offers.', priority: 1 },
    { name: 'Sizes', type: 'string', format: '', description: 'Size presets the engine offers.', priority: 1 },
  ],
  ageCells: obj => [{ index: 5, since: obj.metadata.creationTimestamp }],
  cells(obj, now) {
    return [
      obj.metadata.name ?? '',
      obj.status?.installed ?? false,
      obj.spec?.operator ?? '',
      obj.spec?.capabilityLevel ?? null,
      obj.status?.instances ?? 0,
      age(obj.metadata.creationTimestamp, now),
      (obj.spec?.topologies ?? []).join(','),
      (obj.spec?.versions ?? []).join(','),
      (obj.spec?.sizes ?? []).map(s => s.name).join(','),
    ];
  },
};
