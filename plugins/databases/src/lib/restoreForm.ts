import {
  ANNOTATION_OWNER,
  type CreateInstanceRequest,
  type DatabaseBackup,
  type DatabaseEngine,
  type DatabaseInstance,
  type RestoreFrom,
} from '@internal/plugin-databases-common';

/** What the "Restore into a new database" dialog holds; strings as typed. */
export interface RestoreFormValues {
  name: string;
  storage: string;
  /** `exact`: this backup as it is; `time`: the source instance to a point in time (where the engine offers it). */
  mode: 'exact' | 'time';
  /** A `datetime-local` value read as UTC (`2026-12-01T02:03:04`). */
  pointInTime: string;
}

export type RestoreFormErrors = Partial<Record<'name' | 'storage' | 'pointInTime' | 'owner', string>>;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUANTITY_BYTES = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$/;
const SUFFIX = '-restored';

/** Why restoring is off, or undefined when it is offered. The engine (DatabaseEngine) says first. */
export function restoreBlocker(allowed: boolean, engine?: DatabaseEngine): string | undefined {
  // whether a point in time is offered, and restore at all, is the engine's to say: wait for it
  if (!engine) return 'Reading what this engine can restore…';
  const capabilities = engine.spec.backup;
  if (capabilities && !capabilities.restore) {
    return capabilities.reason ?? `${engine.spec.operator} cannot restore into a new database.`;
  }
  if (!allowed) return 'You do not have permission to create databases like this one.';
  return undefined;
}

/** `<source>-restored`, shortened so it fits the engine's longest name. */
export function restoredName(source: string, maxLength = 63): string {
  const room = Math.max(1, maxLength - SUFFIX.length);
  return `${source.slice(0, room).replace(/-+$/, '')}${SUFFIX}`;
}

/**
 * The version to ask for: the engine's listed version the source runs (an instance reads back
 * the operator's full version, `11.4.2`, where the engine takes `11.4`), else the source's own.
 */
export function restoreVersion(source: DatabaseInstance, engine?: DatabaseEngine): string | undefined {
  const running = source.spec.version;
  if (!running) return undefined;
  const listed = (engine?.spec.versions ?? []).filter(v => running === v || running.startsWith(`${v}.`));
  return listed.sort((a, b) => b.length - a.length)[0] ?? running;
}

/** An RFC 3339 time as a `datetime-local` value in UTC, to the second. */
export function toUtcInput(time: string | undefined): string {
  const ms = Date.parse(time ?? '');
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 19);
}

/** A `datetime-local` value read as UTC, as RFC 3339 to the second; undefined when it is none. */
export function fromUtcInput(value: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2})?(\.\d+)?$/.exec(value);
  if (!m) return undefined;
  const text = `${m[1]}${m[2] ?? ':00'}Z`;
  return Number.isNaN(Date.parse(text)) ? undefined : text;
}

/**
 * The dialog's first values: the source's storage, a new name, and where the engine offers a
 * point in time, that mode at the backup's end (the same data as the backup, and a time the
 * user can move).
 */
export function restoreDefaults(source: DatabaseInstance, backup: DatabaseBackup, engine?: DatabaseEngine): RestoreFormValues {
  const pointInTime = !!engine?.spec.backup?.pointInTime;
  return {
    name: restoredName(source.metadata.name ?? 'database', engine?.spec.maxNameLength),
    storage: source.spec.storage?.size ?? engine?.spec.defaults?.storage?.size ?? '',
    mode: pointInTime ? 'time' : 'exact',
    pointInTime: pointInTime ? toUtcInput(backup.status?.completionTime ?? backup.status?.startTime ?? new Date().toISOString()) : '',
  };
}

/**
 * What is wrong with the values, as the user types (the apiserver checks again and has the last
 * word). `now` and the earliest recoverable time (where the operator records it) bound the time.
 */
export function validateRestore(
  values: RestoreFormValues,
  source: DatabaseInstance,
  engine: DatabaseEngine | undefined,
  now: number,
): RestoreFormErrors {
  const errors: RestoreFormErrors = {};
  const max = engine?.spec.maxNameLength ?? 63;
  if (!values.name) errors.name = 'Give the new database a name.';
  else if (values.name.length > max) errors.name = `At most ${max} characters${engine ? ` for ${engine.spec.engine}` : ''}.`;
  else if (!DNS_LABEL.test(values.name)) errors.name = 'Lower-case letters, digits and "-", starting and ending with a letter or digit.';
  else if (values.name === source.metadata.name) errors.name = 'A restore makes a new database: give it a name of its own.';
  if (!QUANTITY_BYTES.test(values.storage)) errors.storage = 'A size such as 10Gi.';
  if (!source.metadata.annotations?.[ANNOTATION_OWNER]) errors.owner = `${source.metadata.name} names no owning team to give the new database.`;
  if (values.mode === 'time') {
    const time = fromUtcInput(values.pointInTime);
    const first = source.status?.backup?.firstRecoverabilityPoint;
    if (!time) errors.pointInTime = 'Pick a date and time (UTC).';
    else if (Date.parse(time) > now) errors.pointInTime = 'It is in the future: pick a time that has passed.';
    else if (first && Date.parse(time) < Date.parse(first)) errors.pointInTime = `The earliest time ${source.metadata.name} can go back to is ${first}.`;
  }
  return errors;
}

/**
 * The backend's create request: the source's engine, topology, version, replicas and resources,
 * the typed name and storage, and `restoreFrom` (the backup, or the source instance and the time).
 */
export function toRestoreRequest(
  source: DatabaseInstance,
  backup: DatabaseBackup,
  values: RestoreFormValues,
  engine?: DatabaseEngine,
): CreateInstanceRequest {
  const restoreFrom: RestoreFrom =
    values.mode === 'time'
      ? { instance: source.metadata.name!, pointInTime: fromUtcInput(values.pointInTime)! }
      : { backup: backup.metadata.name! };
  const { topology, replicas, resources } = source.spec;
  const version = restoreVersion(source, engine);
  return {
    name: values.name,
    owner: source.metadata.annotations?.[ANNOTATION_OWNER] ?? '',
    spec: {
      engine: source.spec.engine,
      ...(version ? { version } : {}),
      ...(topology ? { topology } : {}),
      ...(replicas !== undefined ? { replicas } : {}),
      storage: { size: values.storage, ...(source.spec.storage?.storageClassName ? { storageClassName: source.spec.storage.storageClassName } : {}) },
      ...(resources ? { resources: JSON.parse(JSON.stringify(resources)) } : {}),
      restoreFrom,
    },
  };
}
