import type { KubeEmulator } from '@internal/kube-emulator';
import { PODS, STATEFULSETS, type Json, type Template } from './buildTemplates';

/** Catalog label tying an instance to its component (`LABEL_BACKSTAGE_KUBERNETES_ID`). */
export const COMPONENT_LABEL = 'backstage.io/kubernetes-id';
const OWNER_ANNOTATION = 'dbaas.platform.dev/owner';
const NAMESPACES = { group: '', version: 'v1', plural: 'namespaces' } as const;

/** Options of {@link populate}. */
export interface PopulateOptions {
  count: number;
  /** Instances are spread round-robin over this many namespaces (`bench-00` …). */
  namespaces?: number;
  /** …and over this many catalog components (`component-0` …), 20 instances each at 10,000. */
  components?: number;
  /**
   * Sets how far back the emulator's clock is while one instance's objects are written (0 at the
   * end): instances are given ages from 1 hour to 30 days, as a fleet of databases has.
   */
  backdate?: (ms: number) => void;
}

/** An instance's age: from 1 hour to 30 days, spread evenly and deterministically. */
export function instanceAgeMs(i: number): number {
  const minutes = 30 * 24 * 60 - 60;
  return 3_600_000 + ((i * 7919) % minutes) * 60_000;
}

/** One instance written to the emulator. */
export interface PopulatedInstance {
  namespace: string;
  name: string;
  template: Template;
  component: string;
}

export const benchNamespace = (i: number) => `bench-${String(i).padStart(2, '0')}`;

/**
 * The template for each of `count` instances: variants in proportion to their weights,
 * interleaved (a smooth weighted round-robin) so every slice of the population has every
 * engine, topology and phase.
 */
export function assignTemplates(templates: Template[], count: number): Template[] {
  const total = templates.reduce((n, t) => n + t.variant.weight, 0);
  const credit = templates.map(() => 0);
  const out: Template[] = [];
  for (let i = 0; i < count; i++) {
    let best = 0;
    for (let j = 0; j < templates.length; j++) {
      credit[j] += templates[j].variant.weight;
      if (credit[j] > credit[best]) best = j;
    }
    credit[best] -= total;
    out.push(templates[best]);
  }
  return out;
}

/** A template's operator status as the operator would write it for `name` in `namespace`. */
export function stampStatus(t: Template, name: string, namespace: string): Json | undefined {
  return t.object.status === undefined ? undefined : stamp(JSON.stringify(t.object.status), t, name, namespace);
}

/** A copy of a template's JSON with its placeholder name and namespace replaced. */
function stamp(json: string, t: Template, name: string, namespace: string): Json {
  return JSON.parse(json.split(t.name).join(name).split(t.namespace).join(namespace));
}

/**
 * Writes `count` instances straight into the emulator's store (no operators run, so every
 * object keeps the status its template settled on): operator objects with labels and owner
 * annotation, then their status through the status subresource, then their StatefulSets with
 * the owner's new uid — what the operators would have written, without waiting for them.
 */
export function populate(emulator: KubeEmulator, templates: Template[], options: PopulateOptions): PopulatedInstance[] {
  const { store } = emulator;
  const namespaces = options.namespaces ?? 50;
  const components = options.components ?? Math.max(1, Math.round(options.count / 20));
  for (let n = 0; n < namespaces; n++) {
    const name = benchNamespace(n);
    if (!store.get(NAMESPACES, undefined, name)) {
      store.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name } } });
    }
  }
  const texts = new Map<Template, { object: string; sets: string[]; pods: string[] }>();
  const withoutServerFields = (o: Json) => {
    const { uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, ...m } = o.metadata;
    return JSON.stringify({ ...o, metadata: m });
  };
  const textOf = (t: Template) => {
    let hit = texts.get(t);
    if (!hit) {
      const { status: _s, ...object } = t.object;
      const { uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, ...metadata } = t.object.metadata;
      hit = {
        object: JSON.stringify({ ...object, metadata }),
        sets: t.statefulSets.map(withoutServerFields),
        pods: t.pods.map(withoutServerFields),
      };
      texts.set(t, hit);
    }
    return hit;
  };
  const statefulSetStatus = store.resource(STATEFULSETS)?.statusSubresource ? { subresource: 'status' as const } : undefined;
  const podStatusWrite = store.resource(PODS)?.statusSubresource ? { subresource: 'status' as const } : undefined;
  const out: PopulatedInstance[] = [];
  const assigned = assignTemplates(templates, options.count);
  assigned.forEach((t, i) => {
    const namespace = benchNamespace(i % namespaces);
    const name = `${t.variant.id.replace(/-(ready|degraded|provisioning|updating|failed|pending)$/, '')}-${i}`;
    const component = `component-${i % components}`;
    options.backdate?.(instanceAgeMs(i));
    const text = textOf(t);
    const object = stamp(text.object, t, name, namespace);
    object.metadata.labels = { ...object.metadata.labels, [COMPONENT_LABEL]: component };
    object.metadata.annotations = { ...object.metadata.annotations, [OWNER_ANNOTATION]: `group:default/${namespace}` };
    const created = store.create(t.variant.kind, object);
    const status = stampStatus(t, name, namespace);
    if (status !== undefined) {
      const sub = store.resource(t.variant.kind)?.statusSubresource;
      store.update(t.variant.kind, { ...created, status }, sub ? { subresource: 'status' } : undefined);
    }
    const setUids = new Map<string, string>();
    text.sets.forEach(setText => {
      const set = stamp(setText, t, name, namespace);
      for (const ref of set.metadata.ownerReferences ?? []) ref.uid = created.metadata.uid;
      const { status: setStatus, ...body } = set;
      const made = store.create(STATEFULSETS, body);
      setUids.set(made.metadata.name, made.metadata.uid);
      if (setStatus !== undefined) store.update(STATEFULSETS, { ...made, status: setStatus }, statefulSetStatus);
    });
    // the member pods, owned by their StatefulSet or (CloudNativePG) the operator object
    text.pods.forEach(podText => {
      const pod = stamp(podText, t, name, namespace);
      for (const ref of pod.metadata.ownerReferences ?? []) ref.uid = (ref.kind === 'StatefulSet' && setUids.get(ref.name)) || created.metadata.uid;
      const { status: podStatus, ...body } = pod;
      const made = store.create(PODS, body);
      if (podStatus !== undefined) store.update(PODS, { ...made, status: podStatus }, podStatusWrite);
    });
    out.push({ namespace, name, template: t, component });
  });
  options.backdate?.(0);
  return out;
}
