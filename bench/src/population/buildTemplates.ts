import { ANNOTATION_READY_SPEC } from '@internal/plugin-databases-common';
import { adapters, rolloutSignature } from '@internal/databases-apiserver';
import { KubeEmulator } from '@internal/kube-emulator';
import { allVariants, type Variant } from './variants';

/** Kubernetes object as JSON (the emulator's store holds exactly the wire form). */
export type Json = Record<string, any>;

/** A settled instance of one variant: its operator object and the StatefulSets written for it. */
export interface Template {
  variant: Variant;
  /** Placeholder name and namespace inside `object`/`statefulSets` (unique tokens). */
  name: string;
  namespace: string;
  /** Operator object with the status the emulated operator wrote (none for `pending`). */
  object: Json;
  /** StatefulSets the emulated operator created for it, with their status. */
  statefulSets: Json[];
  /** Its member pods (owned by it or its StatefulSets), with their status. */
  pods: Json[];
}

export const STATEFULSETS = { group: 'apps', version: 'v1', plural: 'statefulsets' } as const;
export const PODS = { group: '', version: 'v1', plural: 'pods' } as const;
const NAMESPACES = { group: '', version: 'v1', plural: 'namespaces' } as const;
const SECRETS = { group: '', version: 'v1', plural: 'secrets' } as const;

/** Placeholder namespace: a token that occurs nowhere else, replaced when stamping copies. */
export const TEMPLATE_NAMESPACE = 'bnchtplns';
/** Placeholder name of template `i`: the trailing `z` keeps `…1z` from matching inside `…12z`. */
export const templateName = (i: number) => `bnchtpl${i}z`;

/**
 * A Ready template carries the Ready spec an apiserver of this version has recorded on it
 * (`dbaas.platform.dev/ready-spec`, see ReadySpecRecorder), as a fleet's objects do once it ran:
 * the benchmark measures the steady state, not the one-time recording of a first start.
 */
function withReadySpec(variant: Variant, object: Json, statefulSets: Json[]): Json {
  const adapter = adapters.find(a => a.engine === variant.engine);
  const kind = adapter?.kinds.find(k => k.kind === variant.kind.kind && k.group === variant.kind.group);
  if (!adapter || !kind) return object;
  const instance = adapter.project(object, kind, {
    get: ref => statefulSets.find(s => s.metadata.name === ref.name),
  });
  if (instance.status?.phase !== 'Ready') return object;
  return {
    ...object,
    metadata: {
      ...object.metadata,
      annotations: { ...object.metadata.annotations, [ANNOTATION_READY_SPEC]: rolloutSignature(instance) },
    },
  };
}

/** Rounds of the emulated operators before a template counts as settled (pods come up one per round). */
const ROUNDS = 40;

/**
 * One settled instance per variant, produced by the kube-emulator's own emulated operators in a
 * scratch emulator: statuses are exactly what the operators write in their upstream dialect for
 * each phase, and Redis standalone/sentinel get the StatefulSets their phase is read from.
 */
export async function buildTemplates(variants: Variant[] = allVariants()): Promise<Template[]> {
  const scratch = await KubeEmulator.start({ operators: false });
  try {
    const { store, operators } = scratch;
    store.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: TEMPLATE_NAMESPACE } });
    const made = variants.map((variant, i) => {
      const name = templateName(i);
      const ref = { group: variant.kind.group, kind: variant.kind.kind, namespace: TEMPLATE_NAMESPACE, name };
      // `stalled` before the first round keeps an object without any status: Pending.
      operators.setHealth(ref, variant.mode === 'pending' ? 'stalled' : variant.mode);
      const { object, secrets } = variant.build(name, TEMPLATE_NAMESPACE);
      for (const secret of secrets) {
        store.create(SECRETS, { ...secret, metadata: { ...secret.metadata, namespace: TEMPLATE_NAMESPACE } });
      }
      store.create(variant.kind, object);
      return { variant, name };
    });
    for (let i = 0; i < ROUNDS; i++) operators.tick();
    const sets = store.list(STATEFULSETS, TEMPLATE_NAMESPACE);
    const pods = store.list(PODS, TEMPLATE_NAMESPACE) as Json[];
    return made.map(({ variant, name }) => {
      const object = store.get(variant.kind, TEMPLATE_NAMESPACE, name) as Json;
      const uid = object.metadata.uid;
      const statefulSets = sets.filter(s =>
        (s.metadata.ownerReferences ?? []).some(r => r.uid === uid),
      ) as Json[];
      const owners = new Set([uid, ...statefulSets.map(s => s.metadata.uid)]);
      return {
        variant,
        name,
        namespace: TEMPLATE_NAMESPACE,
        object: withReadySpec(variant, object, statefulSets),
        statefulSets,
        pods: pods.filter(p => (p.metadata.ownerReferences ?? []).some((r: Json) => owners.has(r.uid))),
      };
    });
  } finally {
    await scratch.stop();
  }
}
