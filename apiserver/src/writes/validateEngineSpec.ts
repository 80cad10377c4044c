import type {
  DatabaseInstanceSpec,
  ResourceList,
} from '@internal/plugin-databases-common';
import type { ValidationContext } from '../adapters/types';
import type { EngineRules } from './EngineRules';
import {
  type FieldCause,
  invalid,
  notSupported,
  required,
  typeInvalid,
} from './FieldCause';
import {
  compareQuantities,
  parseQuantity,
  QUANTITY_FORMAT_MESSAGE,
  type Quantity,
} from './quantity';
import { replicasAllowed } from './replicaRule';
import { parseVersion } from './version';

const RESOURCE_NAMES = ['cpu', 'memory'] as const;
const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function checkVersion(
  rules: EngineRules,
  version: unknown,
  offered: readonly string[],
): FieldCause[] {
  const field = 'spec.version';
  if (version === undefined || version === '') return [required(field)];
  if (typeof version !== 'string')
    return [typeInvalid(field, version, 'string')];
  if (!parseVersion(version))
    return [
      invalid(
        field,
        version,
        `must be a dotted version number such as ${JSON.stringify(rules.versions[0] ?? '1.0')}`,
      ),
    ];
  return offered.includes(version)
    ? []
    : [notSupported(field, version, offered)];
}

function checkReplicas(
  rules: EngineRules,
  spec: DatabaseInstanceSpec,
): FieldCause[] {
  const field = 'spec.replicas';
  const replicas: unknown = spec.replicas;
  const topology = spec.topology;
  const knownTopology = !!topology && rules.topologies.includes(topology);
  // Without a known topology there is no default to fill in; the topology's cause says it all.
  if (replicas === undefined) return knownTopology ? [required(field)] : [];
  if (typeof replicas !== 'number')
    return [typeInvalid(field, replicas, 'integer')];
  if (!Number.isInteger(replicas) || replicas < 1)
    return [
      invalid(field, replicas, 'must be an integer greater than or equal to 1'),
    ];
  if (!knownTopology) return [];
  const rule = rules.replicas(topology!);
  return replicasAllowed(rule, replicas)
    ? []
    : [invalid(field, replicas, rule.message)];
}

function checkStorage(spec: DatabaseInstanceSpec): FieldCause[] {
  const storage: unknown = spec.storage;
  if (storage === undefined) return [required('spec.storage.size')];
  if (!isRecord(storage))
    return [typeInvalid('spec.storage', storage, 'object')];
  const causes: FieldCause[] = [];
  const size = storage.size;
  const sizeField = 'spec.storage.size';
  if (size === undefined || size === '') causes.push(required(sizeField));
  else {
    const q = parseQuantity(size);
    if (!q) causes.push(invalid(sizeField, size, QUANTITY_FORMAT_MESSAGE));
    else if (q.nanos <= 0n)
      causes.push(invalid(sizeField, size, 'must be greater than zero'));
  }
  const className = storage.storageClassName;
  const classField = 'spec.storage.storageClassName';
  if (className !== undefined) {
    if (typeof className !== 'string')
      causes.push(typeInvalid(classField, className, 'string'));
    else if (className.length > 253 || !DNS1123_SUBDOMAIN.test(className))
      causes.push(
        invalid(
          classField,
          className,
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        ),
      );
  }
  return causes;
}

/** Parsed cpu/memory of one ResourceList, with a cause for each bad entry. */
function checkResourceList(
  list: unknown,
  field: string,
  causes: FieldCause[],
): Partial<Record<keyof ResourceList, Quantity>> {
  const parsed: Partial<Record<keyof ResourceList, Quantity>> = {};
  if (list === undefined) return parsed;
  if (!isRecord(list)) {
    causes.push(typeInvalid(field, list, 'object'));
    return parsed;
  }
  for (const [name, value] of Object.entries(list)) {
    const path = `${field}.${name}`;
    if (!(RESOURCE_NAMES as readonly string[]).includes(name)) {
      causes.push(notSupported(path, name, RESOURCE_NAMES));
      continue;
    }
    const q = parseQuantity(value);
    if (!q) causes.push(invalid(path, value, QUANTITY_FORMAT_MESSAGE));
    else if (q.nanos < 0n)
      causes.push(invalid(path, value, 'must be greater than or equal to 0'));
    else parsed[name as keyof ResourceList] = q;
  }
  return parsed;
}

function checkResources(spec: DatabaseInstanceSpec): FieldCause[] {
  const resources: unknown = spec.resources;
  if (resources === undefined) return [];
  if (!isRecord(resources))
    return [typeInvalid('spec.resources', resources, 'object')];
  const causes: FieldCause[] = [];
  for (const key of Object.keys(resources))
    if (key !== 'requests' && key !== 'limits')
      causes.push(
        notSupported(`spec.resources.${key}`, key, ['limits', 'requests']),
      );
  const requests = checkResourceList(
    resources.requests,
    'spec.resources.requests',
    causes,
  );
  const limits = checkResourceList(
    resources.limits,
    'spec.resources.limits',
    causes,
  );
  for (const name of RESOURCE_NAMES) {
    const request = requests[name];
    const limit = limits[name];
    // apimachinery's ValidateResourceRequirements message, word for word.
    if (request && limit && compareQuantities(request, limit) > 0)
      causes.push(
        invalid(
          `spec.resources.requests.${name}`,
          request.text,
          `must be less than or equal to ${name} limit of ${limit.text}`,
        ),
      );
  }
  return causes;
}

/**
 * Validates a defaulted spec against one engine's rules: topology offered, version offered
 * and parseable, replicas the topology can have, storage and resources as Kubernetes
 * quantities with requests not above limits. Returns every problem, each naming its field.
 */
export function validateEngineSpec(
  rules: EngineRules,
  spec: DatabaseInstanceSpec,
  ctx?: ValidationContext,
): FieldCause[] {
  const causes: FieldCause[] = [];
  if (spec.engine !== rules.engine)
    causes.push(notSupported('spec.engine', spec.engine, [rules.engine]));
  const topology: unknown = spec.topology;
  if (topology === undefined || topology === '')
    causes.push(required('spec.topology'));
  else if (!rules.topologies.includes(topology as never))
    causes.push(notSupported('spec.topology', topology, rules.topologies));
  causes.push(
    ...checkVersion(rules, spec.version, ctx?.versions ?? rules.versions),
  );
  causes.push(...checkReplicas(rules, spec));
  causes.push(...checkStorage(spec));
  causes.push(...checkResources(spec));
  const protection: unknown = spec.deletionProtection;
  if (protection !== undefined && typeof protection !== 'boolean')
    causes.push(typeInvalid('spec.deletionProtection', protection, 'boolean'));
  const paused: unknown = spec.paused;
  if (paused !== undefined && typeof paused !== 'boolean')
    causes.push(typeInvalid('spec.paused', paused, 'boolean'));
  const primary: unknown = spec.primary;
  if (primary !== undefined && typeof primary !== 'string')
    causes.push(typeInvalid('spec.primary', primary, 'string'));
  return causes;
}
