import type { KubeEmulator } from '@internal/kube-emulator';
import type { Template } from '../population/buildTemplates';
import { stampStatus, type PopulatedInstance } from '../population/populate';

/** One upstream status change, chosen but not yet written. */
export interface PlannedChange {
  namespace: string;
  name: string;
  /** Writes it to the emulator. */
  apply(): void;
}

/**
 * Which instances each emulator holds degraded: shared by every flipper of one emulator, as
 * figures run one after another against the same objects (nothing else writes their status).
 */
const degradedNow = new WeakMap<KubeEmulator, Set<string>>();

/**
 * Writes real upstream status changes, as an operator would: each call takes the next healthy
 * instance and swaps its operator status between its `ready` template's and the `degraded`
 * template's of the same engine and topology (a Ready ↔ Degraded phase change).
 */
export function statusFlipper(emulator: KubeEmulator, instances: PopulatedInstance[]): () => PlannedChange {
  const degradedOf = new Map<string, Template>();
  for (const { template } of instances) {
    if (template.variant.mode === 'degraded' && template.object.status !== undefined) {
      degradedOf.set(`${template.variant.kind.kind}/${template.variant.topology}`, template);
    }
  }
  const differs = (a: Template, b: Template | undefined) =>
    !!b && JSON.stringify(stampStatus(a, 'x', 'y')) !== JSON.stringify(stampStatus(b, 'x', 'y'));
  // Some kinds say the same in both phases (RedisReplication's status only names its master):
  // writing that would be no change at all.
  const candidates = instances.filter(
    i =>
      i.template.variant.mode === 'ready' &&
      i.template.object.status !== undefined &&
      differs(i.template, degradedOf.get(`${i.template.variant.kind.kind}/${i.template.variant.topology}`)),
  );
  if (candidates.length === 0) throw new Error('no instance with a ready and a degraded status to flip');
  const degraded = degradedNow.get(emulator) ?? new Set<string>();
  degradedNow.set(emulator, degraded);
  let k = 0;
  return () => {
    const inst = candidates[k++ % candidates.length];
    const key = `${inst.namespace}/${inst.name}`;
    return {
      namespace: inst.namespace,
      name: inst.name,
      apply: () => {
        const kind = inst.template.variant.kind;
        const to = degraded.has(key) ? inst.template : degradedOf.get(`${kind.kind}/${inst.template.variant.topology}`)!;
        const status = stampStatus(to, inst.name, inst.namespace);
        const current = emulator.store.get(kind, inst.namespace, inst.name);
        if (!current) throw new Error(`${key} is gone`);
        const sub = emulator.store.resource(kind)?.statusSubresource;
        emulator.store.update(kind, { ...current, status }, sub ? { subresource: 'status' } : undefined);
        if (degraded.has(key)) degraded.delete(key);
        else degraded.add(key);
      },
    };
  };
}
