import type {
  CreateInstanceRequest,
  DatabaseEngine,
  DatabasesFieldError,
  DatabaseTopology,
  EngineReplicas,
  EngineSize,
} from '@internal/plugin-databases-common';

/** What the request form holds; strings as typed, so validation can speak about them. */
export interface RequestFormValues {
  cluster: string;
  engine: string;
  name: string;
  namespace: string;
  owner: string;
  topology: string;
  version: string;
  replicas: string;
  /** The name of one of the engine's sizes, or {@link CUSTOM_SIZE}. */
  size: string;
  storage: string;
  cpu: string;
  memory: string;
  entityRef?: string;
}

export type RequestFormField = Exclude<keyof RequestFormValues, 'entityRef'>;

/** Errors by field; `general` for what belongs to no field. */
export type RequestFormErrors = Partial<Record<RequestFormField | 'general', string>>;

/** The size choice where the user types storage, CPU and memory. */
export const CUSTOM_SIZE = 'custom';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUANTITY_BYTES = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$/;
const QUANTITY_CPU = /^([0-9]+m|[0-9]+(\.[0-9]+)?)$/;

/** The engine's size presets (none from an apiserver that predates them: only custom then). */
export const engineSizes = (engine: DatabaseEngine | undefined): EngineSize[] => engine?.spec.sizes ?? [];

/** How a size reads in the picker: `Small (250m CPU, 512Mi memory, 10Gi storage)`. */
export function sizeLabel(size: EngineSize): string {
  const { cpu, memory } = size.resources.requests;
  return `${size.title} (${cpu} CPU, ${memory} memory, ${size.storage.size} storage)`;
}

/** The replica counts the engine allows for a topology, when it says. */
export const replicaRule = (engine: DatabaseEngine | undefined, topology: string): EngineReplicas | undefined =>
  engine?.spec.replicas?.[topology as DatabaseTopology];

/**
 * What is wrong with a typed replica count, or undefined when it is fine: a whole number of at
 * least 1, then the engine's rule for the topology, in the engine's own words.
 */
export function replicasProblem(text: string, rule: EngineReplicas | undefined): string | undefined {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || n < 1) return 'A whole number, at least 1.';
  if (!rule) return undefined;
  const allowed = n >= rule.min && (rule.max === undefined || n <= rule.max) && !(rule.odd && n % 2 === 0);
  return allowed ? undefined : rule.description;
}

/** Validates the form as the user types. Returns no entry for a field that is fine. */
export function validateRequest(
  values: RequestFormValues,
  engine: DatabaseEngine | undefined,
): RequestFormErrors {
  const errors: RequestFormErrors = {};
  if (!values.cluster) errors.cluster = 'Pick a cluster.';
  if (!values.engine) errors.engine = 'Pick an engine.';
  else if (engine && !engine.status?.installed) {
    errors.engine = `The ${engine.spec.operator} operator is not installed in this cluster.`;
  }
  if (!values.name) errors.name = 'Give the database a name.';
  else if (values.name.length > (engine?.spec.maxNameLength ?? 63)) {
    errors.name = `At most ${engine?.spec.maxNameLength ?? 63} characters${engine ? ` for ${engine.spec.engine}` : ''}.`;
  }
  else if (!DNS_LABEL.test(values.name)) {
    errors.name = 'Lower-case letters, digits and "-", starting and ending with a letter or digit.';
  }
  if (!values.namespace) errors.namespace = 'Pick a namespace.';
  else if (!DNS_LABEL.test(values.namespace) || values.namespace.length > 63) {
    errors.namespace = 'Not a valid namespace name.';
  }
  if (!values.owner) errors.owner = 'Pick the team that owns it.';
  if (engine && values.topology && !engine.spec.topologies.includes(values.topology as DatabaseTopology)) {
    errors.topology = `${engine.spec.engine} supports ${engine.spec.topologies.join(', ')}.`;
  }
  if (engine && values.version && engine.spec.versions.length > 0 && !engine.spec.versions.includes(values.version)) {
    errors.version = `Available: ${engine.spec.versions.join(', ')}.`;
  }
  const replicas = replicasProblem(values.replicas, replicaRule(engine, values.topology));
  if (replicas) errors.replicas = replicas;
  const sizes = engineSizes(engine);
  if (engine && values.size !== CUSTOM_SIZE && !sizes.some(s => s.name === values.size)) {
    errors.size = `Pick ${[...sizes.map(s => s.title), 'Custom'].join(', ')}.`;
  }
  if (!QUANTITY_BYTES.test(values.storage)) errors.storage = 'A size such as 10Gi.';
  if (values.cpu && !QUANTITY_CPU.test(values.cpu)) errors.cpu = 'CPU such as 500m or 2.';
  if (values.memory && !QUANTITY_BYTES.test(values.memory)) errors.memory = 'Memory such as 1Gi.';
  return errors;
}

/**
 * The backend request for valid form values. A size of the engine is sent as the engine states
 * it (limits included); a custom size as the requests the user typed.
 */
export function toCreateRequest(
  values: RequestFormValues,
  dryRun: boolean,
  engine?: DatabaseEngine,
): CreateInstanceRequest {
  const preset = engineSizes(engine).find(s => s.name === values.size);
  const typed =
    values.cpu || values.memory
      ? {
          requests: {
            ...(values.cpu ? { cpu: values.cpu } : {}),
            ...(values.memory ? { memory: values.memory } : {}),
          },
        }
      : undefined;
  const resources = preset ? JSON.parse(JSON.stringify(preset.resources)) : typed;
  return {
    name: values.name,
    owner: values.owner,
    ...(values.entityRef ? { entityRef: values.entityRef } : {}),
    ...(dryRun ? { dryRun: true } : {}),
    spec: {
      engine: values.engine as CreateInstanceRequest['spec']['engine'],
      ...(values.version ? { version: values.version } : {}),
      ...(values.topology ? { topology: values.topology as DatabaseTopology } : {}),
      replicas: Number(values.replicas),
      storage: { size: preset?.storage.size ?? values.storage },
      ...(resources ? { resources } : {}),
    },
  };
}

const FIELD_PATHS: Array<[RegExp, RequestFormField]> = [
  [/^metadata\.name$|^name$/, 'name'],
  [/^metadata\.namespace$|^namespace$/, 'namespace'],
  [/owner/, 'owner'],
  [/^spec\.engine$/, 'engine'],
  [/^spec\.topology$/, 'topology'],
  [/^spec\.version$/, 'version'],
  [/^spec\.replicas$/, 'replicas'],
  [/^spec\.storage/, 'storage'],
  [/^spec\.resources\.(requests|limits)\.cpu$/, 'cpu'],
  [/^spec\.resources\.(requests|limits)\.memory$/, 'memory'],
];

/**
 * Places the server's field errors (Kubernetes `details.causes`) on the form's fields;
 * what matches no field goes to `general`.
 */
export function serverErrorsToFields(causes: DatabasesFieldError[]): RequestFormErrors {
  const errors: RequestFormErrors = {};
  for (const cause of causes) {
    const path = (cause.field ?? '').replace(/^\./, '');
    const match = FIELD_PATHS.find(([pattern]) => pattern.test(path));
    const key = match ? match[1] : 'general';
    const text = match ? cause.message : [path, cause.message].filter(Boolean).join(': ');
    errors[key] = errors[key] ? `${errors[key]} ${text}` : text;
  }
  return errors;
}

/** The storage, CPU and memory fields a size fills in. */
export function sizeValues(size: EngineSize): Pick<RequestFormValues, 'size' | 'storage' | 'cpu' | 'memory'> {
  return {
    size: size.name,
    storage: size.storage.size,
    cpu: size.resources.requests.cpu,
    memory: size.resources.requests.memory,
  };
}

/** The replicas a topology starts with: the engine's default for it, else the fewest it allows. */
export function topologyReplicas(engine: DatabaseEngine, topology: string): string {
  const rule = replicaRule(engine, topology);
  const fallback = topology === engine.spec.defaults?.topology ? engine.spec.defaults?.replicas : undefined;
  return String(rule?.default ?? fallback ?? rule?.min ?? 1);
}

/**
 * Form values an engine suggests, all from its DatabaseEngine: its default topology (else the
 * first), that topology's replicas, its default version (else the first listed) and its first
 * size; without sizes, a custom size filled with its default storage and requests.
 */
export function engineDefaults(
  engine: DatabaseEngine,
): Pick<RequestFormValues, 'topology' | 'version' | 'replicas' | 'size' | 'storage' | 'cpu' | 'memory'> {
  const topology = engine.spec.defaults?.topology ?? engine.spec.topologies[0] ?? '';
  const [first] = engineSizes(engine);
  const defaults = engine.spec.defaults;
  return {
    topology,
    version: defaults?.version ?? engine.spec.versions[0] ?? '',
    replicas: topologyReplicas(engine, topology),
    ...(first
      ? sizeValues(first)
      : {
          size: CUSTOM_SIZE,
          storage: defaults?.storage?.size ?? '',
          cpu: defaults?.resources?.requests?.cpu ?? '',
          memory: defaults?.resources?.requests?.memory ?? '',
        }),
  };
}
