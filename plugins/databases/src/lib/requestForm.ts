import type {
  CreateInstanceRequest,
  DatabaseEngine,
  DatabasesFieldError,
  DatabaseTopology,
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
  size: SizeName;
  storage: string;
  cpu: string;
  memory: string;
  entityRef?: string;
}

export type RequestFormField = Exclude<keyof RequestFormValues, 'entityRef'>;

/** Errors by field; `general` for what belongs to no field. */
export type RequestFormErrors = Partial<Record<RequestFormField | 'general', string>>;

export type SizeName = 'small' | 'medium' | 'large' | 'custom';

/** Size presets: a developer picks a size, the platform's numbers fill in. */
export const SIZES: Record<Exclude<SizeName, 'custom'>, { label: string; storage: string; cpu: string; memory: string }> = {
  small: { label: 'Small (0.25 CPU, 512Mi, 1Gi disk)', storage: '1Gi', cpu: '250m', memory: '512Mi' },
  medium: { label: 'Medium (0.5 CPU, 1Gi, 10Gi disk)', storage: '10Gi', cpu: '500m', memory: '1Gi' },
  large: { label: 'Large (2 CPU, 4Gi, 50Gi disk)', storage: '50Gi', cpu: '2', memory: '4Gi' },
};

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUANTITY_BYTES = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$/;
const QUANTITY_CPU = /^([0-9]+m|[0-9]+(\.[0-9]+)?)$/;

/** Topologies that need an odd number of members to keep quorum. */
const QUORUM_TOPOLOGIES: DatabaseTopology[] = ['galera', 'innodbcluster', 'sentinel'];

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
  else if (values.name.length > 40) errors.name = 'At most 40 characters.';
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
  const replicas = Number(values.replicas);
  if (!/^[0-9]+$/.test(values.replicas) || replicas < 1) {
    errors.replicas = 'A whole number, at least 1.';
  } else if (replicas > 9) {
    errors.replicas = 'At most 9 from the portal; ask the platform team for more.';
  } else if (QUORUM_TOPOLOGIES.includes(values.topology as DatabaseTopology) && (replicas < 3 || replicas % 2 === 0)) {
    errors.replicas = `${values.topology} needs an odd number of at least 3 members to keep quorum.`;
  } else if (values.topology === 'standalone' && replicas !== 1) {
    errors.replicas = 'A standalone instance has exactly 1 replica.';
  }
  if (!QUANTITY_BYTES.test(values.storage)) errors.storage = 'A size such as 10Gi.';
  if (values.cpu && !QUANTITY_CPU.test(values.cpu)) errors.cpu = 'CPU such as 500m or 2.';
  if (values.memory && !QUANTITY_BYTES.test(values.memory)) errors.memory = 'Memory such as 1Gi.';
  return errors;
}

/** The backend request for valid form values. */
export function toCreateRequest(values: RequestFormValues, dryRun: boolean): CreateInstanceRequest {
  const resources =
    values.cpu || values.memory
      ? {
          requests: {
            ...(values.cpu ? { cpu: values.cpu } : {}),
            ...(values.memory ? { memory: values.memory } : {}),
          },
        }
      : undefined;
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
      storage: { size: values.storage },
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

/** Form values an engine suggests: its defaults, first topology and newest listed version. */
export function engineDefaults(engine: DatabaseEngine): Pick<RequestFormValues, 'topology' | 'version' | 'replicas'> {
  const topology = engine.spec.defaults?.topology ?? engine.spec.topologies[0] ?? '';
  const replicas =
    engine.spec.defaults?.replicas ?? (QUORUM_TOPOLOGIES.includes(topology as DatabaseTopology) ? 3 : 1);
  return {
    topology,
    version: engine.spec.defaults?.version ?? engine.spec.versions[0] ?? '',
    replicas: String(replicas),
  };
}
