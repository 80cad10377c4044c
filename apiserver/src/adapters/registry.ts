import { cloudnativePgAdapter } from './cloudnative-pg/adapter';
import { eckAdapter } from './eck/adapter';
import { mariadbOperatorAdapter } from './mariadb-operator/adapter';
import { mysqlOperatorAdapter } from './mysql-operator/adapter';
import { rabbitmqClusterOperatorAdapter } from './rabbitmq-cluster-operator/adapter';
import { redisOperatorAdapter } from './redis-operator/adapter';
import { withBackupStatus } from './shared/withBackupStatus';
import { withBinding } from './shared/withBinding';
import type { OperatorAdapter, SourceKind } from './types';

/**
 * Every supported operator. Adding one is a folder and one line here. Each serves its Service
 * Binding (`status.binding`, see withBinding) and what it can do about backups (`status.backup`).
 */
export const adapters: readonly OperatorAdapter[] = [
  mariadbOperatorAdapter,
  mysqlOperatorAdapter,
  redisOperatorAdapter,
  eckAdapter,
  rabbitmqClusterOperatorAdapter,
  cloudnativePgAdapter,
]
  .map(withBinding)
  .map(withBackupStatus);

/** The adapter serving a primary kind, and that kind, or undefined when no adapter does. */
export function findAdapterForKind(
  group: string,
  kind: string,
  list: readonly OperatorAdapter[] = adapters,
): { adapter: OperatorAdapter; kind: SourceKind } | undefined {
  for (const adapter of list) {
    const found = adapter.kinds.find(k => k.group === group && k.kind === kind);
    if (found) return { adapter, kind: found };
  }
  return undefined;
}

/** Same lookup by an object's `apiVersion` (`group/version`) and `kind`; the version must match too. */
export function findAdapterForObject(
  apiVersion: string | undefined,
  kind: string | undefined,
  list: readonly OperatorAdapter[] = adapters,
): { adapter: OperatorAdapter; kind: SourceKind } | undefined {
  if (!apiVersion || !kind) return undefined;
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const found = findAdapterForKind(group, kind, list);
  return found && found.kind.version === version ? found : undefined;
}

/** The adapter of an engine (one per engine). */
export function findAdapterForEngine(
  engine: string,
  list: readonly OperatorAdapter[] = adapters,
): OperatorAdapter | undefined {
  return list.find(a => a.engine === engine);
}

/**
 * Every topology some served kind has, in registry order, each once: the one list of topology
 * names (schemas and policy read it).
 */
export const topologyNames = (
  list: readonly OperatorAdapter[] = adapters,
): string[] => [
  ...new Set(
    list.flatMap(a => [
      ...(a.write?.topologies ?? []),
      ...a.kinds.flatMap(k => k.topologies),
    ]),
  ),
];

/**
 * The engines served, in registry order: the one list of engine names (schemas, policy and
 * config validation read it), so a new adapter brings its engine with it.
 */
export const engineNames = (list: readonly OperatorAdapter[] = adapters): string[] =>
  list.map(a => a.engine);
