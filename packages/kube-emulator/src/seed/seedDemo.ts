import type { ObjectStore, ResourceKey } from '../store/types';
import type { OperatorEmulator } from '../operators/OperatorEmulator';
import { DEMO_BACKUPS, DEMO_INSTANCES, DEMO_TEAMS, type DemoInstance } from './demoInstances';

// Same strings as @internal/plugin-databases-common's LABEL_BACKSTAGE_KUBERNETES_ID and
// ANNOTATION_OWNER; the emulator does not depend on the plugins.
const LABEL_KUBERNETES_ID = 'backstage.io/kubernetes-id';
const ANNOTATION_OWNER = 'dbaas.platform.dev/owner';

const NAMESPACES: ResourceKey = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
};

/** Options of {@link seedDemo}. */
export interface SeedDemoOptions {
  /** Control API used to hold instances in their demo phase (degraded, failed, provisioning, pending). */
  emulator: Pick<OperatorEmulator, 'setHealth' | 'setFault'>;
  /** Instances to create (default: {@link DEMO_INSTANCES}). */
  instances?: readonly DemoInstance[];
  /** Backup objects to create after them (default: {@link DEMO_BACKUPS}; none when `instances` is given). */
  backups?: typeof DEMO_BACKUPS;
}

const isAlreadyExists = (e: unknown) => (e as { code?: number })?.code === 409;

/**
 * Seeds the demo: namespaces team-a, team-b and team-c, and operator objects of every engine
 * labelled for their catalog component and annotated with their owning team, each set up to
 * reach its demo phase once the emulated operators run. Objects that already exist are kept.
 * Returns the instances it set up.
 */
export function seedDemo(
  store: ObjectStore,
  options: SeedDemoOptions,
): DemoInstance[] {
  const instances = [...(options.instances ?? DEMO_INSTANCES)];
  for (const team of DEMO_TEAMS) {
    try {
      store.create(NAMESPACES, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: team,
          labels: {
            'kubernetes.io/metadata.name': team,
            'dbaas.platform.dev/team': team,
          },
        },
      });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
  for (const inst of instances) {
    // Hold before creating, so a stalled object never gets a first reconcile.
    options.emulator.setHealth(
      {
        group: inst.kind.group,
        kind: inst.kind.kind,
        namespace: inst.namespace,
        name: inst.name,
      },
      inst.mode,
      inst.message,
    );
    if (inst.fault)
      options.emulator.setFault(
        {
          group: inst.kind.group,
          kind: inst.kind.kind,
          namespace: inst.namespace,
          name: inst.name,
        },
        inst.fault,
      );
    try {
      store.create(inst.kind, {
        apiVersion: `${inst.kind.group}/${inst.kind.version}`,
        kind: inst.kind.kind,
        metadata: {
          name: inst.name,
          namespace: inst.namespace,
          labels: { [LABEL_KUBERNETES_ID]: inst.component },
          annotations: {
            [ANNOTATION_OWNER]: `group:default/${inst.namespace}`,
          },
        },
        spec: inst.spec,
      });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
  for (const b of options.backups ?? (options.instances ? [] : DEMO_BACKUPS)) {
    if (!store.resource(b.kind)) continue;
    try {
      store.create(b.kind, {
        apiVersion: `${b.kind.group}/${b.kind.version}`,
        kind: b.kind.kind,
        metadata: { name: b.name, namespace: b.namespace, ...(b.annotations && { annotations: b.annotations }) },
        spec: b.spec,
      });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
  return instances;
}
