/**
 * kstatus's generic status computation, transcribed to TypeScript for tests. kstatus is what
 * Flux waits with (`wait: true`, `healthChecks`); the upstream package is
 * sigs.k8s.io/cli-utils/pkg/kstatus/status (kubernetes-sigs/cli-utils), and each function here
 * follows one of its functions, statement for statement:
 *
 * - `compute` — `Compute` in status.go: generic properties, then the built-in kinds' rules, then
 *   the Ready condition, else Current.
 * - `checkGenericProperties`, `checkGeneration` — generic.go: a deletionTimestamp is Terminating;
 *   a `metadata.generation` other than `status.observedGeneration` (both present) is InProgress;
 *   the first `Reconciling=True` is InProgress, the first `Stalled=True` is Failed.
 * - `checkReadyCondition` — status.go: `Ready=True` is Current, `False` and `Unknown` InProgress.
 * - `newInProgressStatus` — util.go.
 *
 * `GetLegacyConditionsFn` (core.go) only knows built-in group/kinds (Deployment, StatefulSet,
 * Pod, Job, CRD...), keyed by `group/kind`; a `dbaas.platform.dev/DatabaseInstance` is none of
 * them, so it is the nil branch here. Errors are thrown where Go returns one (a field of the
 * wrong type: `unstructured.NestedString`/`NestedInt64`, `GetObjectWithConditions`).
 */

export type KstatusStatus =
  'InProgress' | 'Failed' | 'Current' | 'Terminating' | 'NotFound' | 'Unknown';

export interface KstatusCondition {
  type: 'Reconciling' | 'Stalled';
  status: 'True';
  reason: string;
  message: string;
}

export interface KstatusResult {
  status: KstatusStatus;
  message: string;
  conditions: KstatusCondition[];
}

interface BasicCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** unstructured.NestedFieldNoCopy: the value at `path`, `found` false on a missing or non-map step. */
function nested(
  obj: Obj,
  ...path: string[]
): { value: unknown; found: boolean } {
  let at: unknown = obj;
  for (const key of path) {
    if (!isObj(at) || !(key in at)) return { value: undefined, found: false };
    at = at[key];
  }
  return { value: at, found: true };
}

/** unstructured.NestedString: an error when the field is there but not a string. */
function nestedString(
  obj: Obj,
  ...path: string[]
): { value: string; found: boolean } {
  const { value, found } = nested(obj, ...path);
  if (!found) return { value: '', found: false };
  if (typeof value !== 'string')
    throw new Error(
      `${path.join('.')} accessor error: ${String(value)} is of the type ${typeof value}, expected string`,
    );
  return { value, found: true };
}

/** unstructured.NestedInt64: JSON integers decode to int64; anything else is an error. */
function nestedInt64(
  obj: Obj,
  ...path: string[]
): { value: number; found: boolean } {
  const { value, found } = nested(obj, ...path);
  if (!found) return { value: 0, found: false };
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new Error(
      `${path.join('.')} accessor error: ${String(value)} is not an int64`,
    );
  return { value, found: true };
}

/** GetObjectWithConditions (util.go): `status.conditions` as BasicConditions (absent: none). */
function getObjectWithConditions(obj: Obj): BasicCondition[] {
  const status = obj.status;
  if (status === undefined || status === null) return [];
  if (!isObj(status)) throw new Error('status is not an object');
  const conditions = status.conditions;
  if (conditions === undefined || conditions === null) return [];
  if (!Array.isArray(conditions))
    throw new Error('status.conditions is not a list');
  return conditions.map(c => {
    if (!isObj(c)) throw new Error('condition is not an object');
    const field = (key: string) => {
      const v = c[key];
      if (v === undefined || v === null) return '';
      if (typeof v !== 'string')
        throw new Error(`condition ${key} is not a string`);
      return v;
    };
    return {
      type: field('type'),
      status: field('status'),
      reason: field('reason'),
      message: field('message'),
    };
  });
}

/** newInProgressStatus (util.go). */
function newInProgressStatus(reason: string, message: string): KstatusResult {
  return {
    status: 'InProgress',
    message,
    conditions: [{ type: 'Reconciling', status: 'True', reason, message }],
  };
}

/** checkGeneration (generic.go). */
function checkGeneration(u: Obj): KstatusResult | undefined {
  const generation = nestedInt64(u, 'metadata', 'generation');
  if (!generation.found) return undefined;
  const observed = nestedInt64(u, 'status', 'observedGeneration');
  if (observed.found && observed.value !== generation.value) {
    const kind = typeof u.kind === 'string' ? u.kind : '';
    const message = `${kind} generation is ${generation.value}, but latest observed generation is ${observed.value}`;
    return {
      status: 'InProgress',
      message,
      conditions: [
        {
          type: 'Reconciling',
          status: 'True',
          reason: 'LatestGenerationNotObserved',
          message,
        },
      ],
    };
  }
  return undefined;
}

/** checkGenericProperties (generic.go). */
function checkGenericProperties(u: Obj): KstatusResult | undefined {
  const deletionTimestamp = nestedString(u, 'metadata', 'deletionTimestamp');
  if (deletionTimestamp.found && deletionTimestamp.value !== '') {
    return {
      status: 'Terminating',
      message: 'Resource scheduled for deletion',
      conditions: [],
    };
  }
  const generation = checkGeneration(u);
  if (generation) return generation;
  for (const cond of getObjectWithConditions(u)) {
    if (cond.type === 'Reconciling' && cond.status === 'True') {
      return {
        status: 'InProgress',
        message: cond.message,
        conditions: [
          {
            type: 'Reconciling',
            status: 'True',
            reason: cond.reason,
            message: cond.message,
          },
        ],
      };
    }
    if (cond.type === 'Stalled' && cond.status === 'True') {
      return {
        status: 'Failed',
        message: cond.message,
        conditions: [
          {
            type: 'Stalled',
            status: 'True',
            reason: cond.reason,
            message: cond.message,
          },
        ],
      };
    }
  }
  return undefined;
}

/** checkReadyCondition (status.go). */
function checkReadyCondition(u: Obj): KstatusResult | undefined {
  for (const cond of getObjectWithConditions(u)) {
    if (cond.type !== 'Ready') continue;
    switch (cond.status) {
      case 'True':
        return {
          status: 'Current',
          message: 'Resource is Ready',
          conditions: [],
        };
      case 'False':
        return newInProgressStatus(cond.reason, cond.message);
      case 'Unknown':
        return newInProgressStatus(cond.reason, cond.message);
      default:
    }
  }
  return undefined;
}

/** The built-in kinds with rules of their own (core.go's legacyTypes keys). */
const LEGACY_TYPES = new Set([
  'Service',
  'Pod',
  'Secret',
  'PersistentVolumeClaim',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'extensions/DaemonSet',
  'apps/Deployment',
  'extensions/Deployment',
  'apps/ReplicaSet',
  'extensions/ReplicaSet',
  'policy/PodDisruptionBudget',
  'batch/CronJob',
  'ConfigMap',
  'batch/Job',
  'apiextensions.k8s.io/CustomResourceDefinition',
]);

/** Compute (status.go) for an object of a kind without built-in rules. */
export function compute(object: unknown): KstatusResult {
  if (!isObj(object)) throw new Error('not an object');
  const generic = checkGenericProperties(object);
  if (generic) return generic;
  // GetLegacyConditionsFn: key = group/kind (kind alone for the core group)
  const apiVersion =
    typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const key = group ? `${group}/${String(object.kind)}` : String(object.kind);
  if (LEGACY_TYPES.has(key))
    throw new Error(`${key} has kind-specific rules, not transcribed here`);
  const ready = checkReadyCondition(object);
  if (ready) return ready;
  return { status: 'Current', message: 'Resource is current', conditions: [] };
}
