import { describe, it, expect } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type {
  DatabaseEngineName,
  DatabaseInstance,
  DatabaseInstanceSpec,
  DatabaseTopology,
} from '@internal/plugin-databases-common';
// kube-apiserver's structural-schema semantics as the emulator applies them (tests only).
import { SchemaValidator } from '@internal/kube-emulator/src/store/SchemaValidator';
import { pruneUnknownFields } from '@internal/kube-emulator/src/store/structuralSchema';
import { applyMergePatch, createMergePatch } from '../server/mutate/mergePatch';
import { replicasAllowed } from '../writes/replicaRule';
import { majorOf } from '../writes/version';
import { prepareCreate, prepareUpdate } from '../writes/validateSpec';
import {
  crdSchema,
  OPERATORS_DIR,
  readYamlDocuments,
} from './__testUtils__/operatorFiles';
import { emptyLookup } from './__testUtils__/schemaDerivedFixtures';
import { upgradeFrom } from './__testUtils__/upgradeFrom';
import { adapters } from './registry';
import type {
  AdapterWriteSide,
  KubeObject,
  OperatorAdapter,
  SourceKind,
} from './types';

/**
 * Every object and patch an adapter writes, held to the upstream CRD the way kube-apiserver
 * holds a write to a custom resource: it prunes the fields the schema does not declare, then
 * validates. A field the CRD lacks (a resize written under `spec.podResources`, a typo) is
 * dropped silently by a real cluster and the change never happens, while a round trip through
 * our own reader would still see it; so each write must come out of pruning unchanged and
 * validate against the upstream schema.
 */

type Writable = OperatorAdapter & { write: AdapterWriteSide };
const writable = adapters.filter(a => a.write) as Writable[];
const validator = new SchemaValidator();
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * What kube-apiserver would change or refuse in a write of `object` (an update of `old`): the
 * fields pruning drops, and the schema's causes (OpenAPI, list types, CEL rules). None means
 * it stores what was sent.
 */
function storeProblems(
  adapter: Writable,
  kind: SourceKind,
  object: KubeObject,
  old?: KubeObject,
): string[] {
  const problems: string[] = [];
  if (
    object.apiVersion !== `${kind.group}/${kind.version}` ||
    object.kind !== kind.kind
  )
    problems.push(`written as ${object.apiVersion} ${object.kind}`);
  const schema = crdSchema(adapter.id, kind);
  const stored = clone(object);
  for (const field of pruneUnknownFields(stored, schema))
    problems.push(`pruned: ${field}`);
  if (!isDeepStrictEqual(stored, object))
    problems.push('pruning changed the object');
  for (const cause of validator.validate(
    schema,
    clone(object),
    old && clone(old),
  ).causes)
    problems.push(`${cause.field}: ${cause.message}`);
  return problems;
}

const kindOf = (adapter: Writable, object: KubeObject): SourceKind => {
  const kind = adapter.kinds.find(
    k =>
      `${k.group}/${k.version}` === object.apiVersion && k.kind === object.kind,
  );
  if (!kind) throw new Error(`${adapter.id} has no kind ${object.kind}`);
  return kind;
};

const instance = (spec: DatabaseInstanceSpec): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: {
    name: 'orders',
    namespace: 'team-a',
    labels: { 'backstage.io/kubernetes-id': 'orders' },
  },
  spec,
});

/** The operator object a create request makes, through the apiserver's create path. */
function created(spec: DatabaseInstanceSpec): {
  adapter: Writable;
  object: KubeObject;
} {
  const prepared = prepareCreate(instance(spec), adapters);
  if (!('instance' in prepared))
    throw new Error(JSON.stringify(prepared.causes));
  const adapter = prepared.adapter as Writable;
  return {
    adapter,
    object: adapter.write.toOperatorObject(prepared.instance, {
      requestedBy: 'user:default/alice',
    }),
  };
}

const previousSpec = (adapter: Writable, object: KubeObject) =>
  adapter.project(object, kindOf(adapter, object), emptyLookup).spec;

/** One spec change an update may carry. */
interface Change {
  name: string;
  /** The field a refusal of it names. */
  field: string;
  /** Whether the engine's rules let the operator make it from `previous`. */
  allowed(adapter: Writable, previous: DatabaseInstanceSpec): boolean;
  apply(
    adapter: Writable,
    previous: DatabaseInstanceSpec,
  ): DatabaseInstanceSpec;
}

const RESOURCES = {
  requests: { cpu: '1500m', memory: '3Gi' },
  limits: { cpu: '2', memory: '3Gi' },
};
const GROWN = '200Gi';
const replicaRule = (adapter: Writable, previous: DatabaseInstanceSpec) =>
  adapter.write.rules.replicas(previous.topology!);
const more = (p: DatabaseInstanceSpec) => (p.replicas ?? 1) + 2;
const fewer = (p: DatabaseInstanceSpec) => (p.replicas ?? 1) - 2;
const canScaleUp = (a: Writable, p: DatabaseInstanceSpec) =>
  replicasAllowed(replicaRule(a, p), more(p));

/**
 * The spec changes of an update: an upgrade, scaling up and down, a volume resize, new
 * resources (and dropping the limits), deletion protection on and off, and all of them at once.
 */
/** Whether the rules let `p` be upgraded to the newest version (no refused major between). */
const majorReachable = (a: Writable, p: DatabaseInstanceSpec) =>
  a.write.rules.majorUpgradeRefusal === undefined ||
  majorOf(p.version ?? '') === majorOf(a.versions[0]);

const CHANGES: Change[] = [
  {
    name: 'upgrade',
    field: 'spec.version',
    allowed: (a, p) => p.version !== a.versions[0] && majorReachable(a, p),
    apply: (a, p) => ({ ...p, version: a.versions[0] }),
  },
  {
    name: 'scale up',
    field: 'spec.replicas',
    allowed: canScaleUp,
    apply: (_a, p) => ({ ...p, replicas: more(p) }),
  },
  {
    name: 'scale down',
    field: 'spec.replicas',
    allowed: (a, p) =>
      a.write.rules.scaleDown && replicasAllowed(replicaRule(a, p), fewer(p)),
    apply: (_a, p) => ({ ...p, replicas: fewer(p) }),
  },
  {
    name: 'resize',
    field: 'spec.storage.size',
    allowed: a => a.write.rules.storageGrowth,
    apply: (_a, p) => ({ ...p, storage: { ...p.storage, size: GROWN } }),
  },
  {
    name: 'new resources',
    field: 'spec.resources',
    allowed: () => true,
    apply: (_a, p) => ({ ...p, resources: RESOURCES }),
  },
  {
    name: 'requests only',
    field: 'spec.resources',
    allowed: () => true,
    apply: (_a, p) => ({
      ...p,
      resources: { requests: { cpu: '1', memory: '2Gi' } },
    }),
  },
  {
    name: 'protect',
    field: 'spec.deletionProtection',
    allowed: () => true,
    apply: (_a, p) => ({ ...p, deletionProtection: true }),
  },
  {
    name: 'unprotect',
    field: 'spec.deletionProtection',
    allowed: () => true,
    apply: (_a, p) => ({ ...p, deletionProtection: false }),
  },
  {
    name: 'everything at once',
    field: 'spec',
    allowed: () => true,
    apply: (a, p) => ({
      ...p,
      ...(majorReachable(a, p) && { version: a.versions[0] }),
      resources: RESOURCES,
      deletionProtection: true,
      ...(canScaleUp(a, p) && { replicas: more(p) }),
      ...(a.write.rules.storageGrowth && {
        storage: { ...p.storage, size: GROWN },
      }),
    }),
  },
];

/** The fields an update is refused for, none when it is accepted. */
function refusedFields(
  adapter: Writable,
  current: KubeObject,
  next: DatabaseInstanceSpec,
): string[] {
  const result = prepareUpdate(
    current,
    next,
    previousSpec(adapter, current),
    adapters,
  );
  return 'causes' in result ? result.causes.map(c => c.field) : [];
}

/**
 * Applies `next` to `current` through the apiserver's update path and returns what reaches
 * kube-apiserver, the merge patch applied to `current`, with what it would change or refuse.
 */
function storedUpdate(
  adapter: Writable,
  current: KubeObject,
  next: DatabaseInstanceSpec,
): { stored: KubeObject; problems: string[] } {
  const previous = previousSpec(adapter, current);
  const result = prepareUpdate(current, next, previous, adapters);
  if (!('object' in result)) throw new Error(JSON.stringify(result.causes));
  const patch = createMergePatch(current, result.object);
  const stored = applyMergePatch(current, patch) as KubeObject;
  const problems = storeProblems(
    adapter,
    kindOf(adapter, current),
    stored,
    current,
  );
  if (!isDeepStrictEqual(stored, result.object))
    problems.push('the merge patch does not carry the whole update');
  return { stored, problems };
}

/** Every engine × topology it offers for new instances. */
const cases: Array<[DatabaseEngineName, DatabaseTopology, Writable]> =
  writable.flatMap(a =>
    a.write.topologies.map(
      t => [a.engine, t, a] as [DatabaseEngineName, DatabaseTopology, Writable],
    ),
  );

describe('every write fits the upstream CRD: nothing pruned, valid', () => {
  it('covers every adapter and topology', () => {
    expect(writable.map(a => a.engine).sort()).toEqual(
      adapters.map(a => a.engine).sort(),
    );
    expect(cases.length).toBeGreaterThanOrEqual(11);
  });

  describe.each(cases)('%s %s', (engine, topology, adapter) => {
    const creates: Array<[string, DatabaseInstanceSpec]> = [
      ['defaults', { engine, topology }],
      [
        'custom values',
        {
          engine,
          topology,
          version: adapter.versions[adapter.versions.length - 1],
          storage: { size: '1536Mi', storageClassName: 'fast-ssd' },
          resources: {
            requests: { cpu: '1500m', memory: '3Gi' },
            limits: { cpu: '2', memory: '3Gi' },
          },
          deletionProtection: true,
        },
      ],
    ];

    it.each(creates)('create with %s', (_variant, spec) => {
      const made = created(spec);
      expect(made.adapter).toBe(adapter);
      expect(
        storeProblems(adapter, adapter.write.kindFor(topology), made.object),
      ).toEqual([]);
    });

    it('secrets to create are plain Opaque Secrets', () => {
      const made = created({ engine, topology });
      const prepared = prepareCreate(instance({ engine, topology }), adapters);
      if (!('instance' in prepared)) throw new Error('refused');
      for (const secret of adapter.write.secretsToCreate(
        prepared.instance,
        () => 'pw',
      )) {
        expect(secret).toMatchObject({
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: { namespace: made.object.metadata?.namespace },
        });
        for (const key of Object.keys(secret))
          expect([
            'apiVersion',
            'kind',
            'metadata',
            'type',
            'stringData',
            'data',
          ]).toContain(key);
      }
    });

    /**
     * What updates start from: the oldest version, and two more replicas than the default
     * where the topology allows (so that scaling down has somewhere to go).
     */
    const start = () => {
      const oldest = upgradeFrom(adapter);
      const spec = { engine, topology, version: oldest };
      const more2 = adapter.write.defaults(topology).replicas + 2;
      const replicas = replicasAllowed(
        adapter.write.rules.replicas(topology),
        more2,
      )
        ? more2
        : undefined;
      return created({ ...spec, ...(replicas && { replicas }) }).object;
    };

    it.each(CHANGES.map(c => [c.name, c] as const))(
      'update: %s, stored as written or refused as the rules say',
      (_name, change) => {
        const from = start();
        const previous = previousSpec(adapter, from);
        const next = change.apply(adapter, previous);
        const allowed = change.allowed(adapter, previous);
        // Allowed: nothing pruned, nothing invalid. Not allowed: refused, naming the field.
        const outcome = allowed
          ? {
              problems: storedUpdate(adapter, from, next).problems,
              refused: false,
            }
          : {
              problems: [],
              refused: refusedFields(adapter, from, next).includes(
                change.field,
              ),
            };
        expect(outcome).toEqual({ problems: [], refused: !allowed });
      },
    );

    it('every allowed update in turn, each on the stored result of the one before', () => {
      let current = start();
      const problems: string[] = [];
      for (const change of CHANGES) {
        const previous = previousSpec(adapter, current);
        if (!change.allowed(adapter, previous)) continue;
        const step = storedUpdate(
          adapter,
          current,
          change.apply(adapter, previous),
        );
        problems.push(...step.problems.map(p => `${change.name}: ${p}`));
        current = step.stored;
      }
      expect(problems).toEqual([]);
      expect(previousSpec(adapter, current)).toMatchObject({
        version: adapter.versions[0],
        resources: RESOURCES,
        deletionProtection: true,
      });
    });
  });
});

/** The upstream samples of an adapter's kinds (objects made by hand, adopted by the apiserver). */
function samplesOf(adapter: Writable): Array<[string, KubeObject]> {
  const dir = path.join(OPERATORS_DIR, adapter.id, 'samples');
  return fs
    .readdirSync(dir)
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .flatMap(file =>
      (readYamlDocuments(path.join(dir, file)) as KubeObject[])
        .filter(doc =>
          adapter.kinds.some(
            k =>
              k.kind === doc.kind &&
              `${k.group}/${k.version}` === doc.apiVersion,
          ),
        )
        .map(doc => {
          const object = clone(doc);
          object.metadata = { namespace: 'team-a', ...object.metadata };
          return [`${file} ${doc.kind}/${doc.metadata?.name}`, object] as [
            string,
            KubeObject,
          ];
        }),
    );
}

const adopted = writable.flatMap(adapter =>
  samplesOf(adapter).map(
    ([name, object]) =>
      [adapter.engine, name, adapter, object] as [
        string,
        string,
        Writable,
        KubeObject,
      ],
  ),
);

describe('updates of adopted upstream samples fit the upstream CRD', () => {
  it('every engine has a sample to adopt', () => {
    expect([...new Set(adopted.map(([engine]) => engine))].sort()).toEqual(
      writable.map(a => a.engine).sort(),
    );
  });

  describe.each(adopted)('%s %s', (_engine, _name, adapter, sample) => {
    it('the sample itself is stored as written', () => {
      expect(storeProblems(adapter, kindOf(adapter, sample), sample)).toEqual(
        [],
      );
    });

    const accepted = (change: Change) => {
      const previous = previousSpec(adapter, sample);
      const next = change.apply(adapter, previous);
      return !('causes' in prepareUpdate(sample, next, previous, adapters));
    };

    it('accepts at least the updates every object allows', () => {
      expect(CHANGES.filter(accepted).map(c => c.name)).toEqual(
        expect.arrayContaining(['protect', 'unprotect']),
      );
    });

    // Changes the operator cannot make on this object are the refusals' tests.
    it.each(CHANGES.map(c => [c.name, c] as const))(
      'update: %s, if accepted, is stored as written',
      (_change, change) => {
        const next = change.apply(adapter, previousSpec(adapter, sample));
        expect(
          accepted(change) ? storedUpdate(adapter, sample, next).problems : [],
        ).toEqual([]);
      },
    );
  });
});
