/**
 * The fields of a DatabaseInstance a client may send, as a tree: `true` = any value
 * (free-form maps, status, lists we do not look into), an object = only these keys.
 * Keep in step with `DatabaseInstanceSpec` and the OpenAPI schema.
 */
type Shape = true | { [key: string]: Shape };

const INSTANCE_SHAPE: Shape = {
  apiVersion: true,
  kind: true,
  metadata: {
    name: true,
    generateName: true,
    namespace: true,
    selfLink: true,
    uid: true,
    resourceVersion: true,
    generation: true,
    creationTimestamp: true,
    deletionTimestamp: true,
    deletionGracePeriodSeconds: true,
    labels: true,
    annotations: true,
    ownerReferences: true,
    finalizers: true,
    managedFields: true,
  },
  spec: {
    engine: true,
    version: true,
    topology: true,
    replicas: true,
    // wrong names inside storage/resources are caught by validation, with their field path
    storage: { size: true, storageClassName: true },
    resources: true,
    deletionProtection: true,
    paused: true,
    primary: true,
    restoreFrom: { backup: true, instance: true, pointInTime: true },
  },
  // status is ignored on writes, whatever it holds
  status: true,
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function walk(value: unknown, shape: Shape, path: string, unknown: string[]): unknown {
  if (shape === true || !isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // an own property only: `constructor` or `__proto__` in a body are unknown fields, not Object's
    const childShape = Object.prototype.hasOwnProperty.call(shape, key) ? shape[key] : undefined;
    const childPath = path ? `${path}.${key}` : key;
    if (childShape === undefined) unknown.push(childPath);
    else out[key] = walk(child, childShape, childPath, unknown);
  }
  return out;
}

/**
 * Drops fields a DatabaseInstance does not have and names them (`spec.foo`), in document
 * order, for `fieldValidation` (Strict refuses, Warn warns, Ignore drops silently).
 */
export function pruneUnknownFields(obj: Record<string, unknown>): {
  pruned: Record<string, unknown>;
  unknown: string[];
} {
  const unknown: string[] = [];
  const pruned = walk(obj, INSTANCE_SHAPE, '', unknown) as Record<string, unknown>;
  return { pruned, unknown };
}
