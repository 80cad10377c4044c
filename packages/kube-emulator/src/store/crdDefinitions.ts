import type { ResourceDefinition } from './types';
import type { FieldCause } from './storeErrors';
import { celCompileCauses } from './celCompileCauses';

const isObj = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Result of reading a CustomResourceDefinition object. */
export interface CrdReading {
  /** One definition per served version. */
  definitions: ResourceDefinition[];
  storageVersion?: string;
  causes: FieldCause[];
}

/**
 * Reads an `apiextensions.k8s.io/v1` CustomResourceDefinition into the ResourceDefinitions it
 * serves, with the validation kube-apiserver applies to the fields the emulator depends on.
 */
export function crdDefinitions(crd: Record<string, unknown>): CrdReading {
  const causes: FieldCause[] = [];
  const spec = isObj(crd.spec) ? crd.spec : {};
  const names = isObj(spec.names) ? spec.names : {};
  const group = typeof spec.group === 'string' ? spec.group : '';
  const plural = typeof names.plural === 'string' ? names.plural : '';
  const kind = typeof names.kind === 'string' ? names.kind : '';
  const name = isObj(crd.metadata) ? String(crd.metadata.name ?? '') : '';
  const required = (field: string) =>
    causes.push({
      reason: 'FieldValueRequired',
      message: 'Required value',
      field,
    });
  if (!group) required('spec.group');
  if (!plural) required('spec.names.plural');
  if (!kind) required('spec.names.kind');
  if (group && plural && name !== `${plural}.${group}`) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${JSON.stringify(name)}: must be spec.names.plural+"."+spec.group`,
      field: 'metadata.name',
    });
  }
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    causes.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${JSON.stringify(spec.scope ?? '')}: supported values: "Cluster", "Namespaced"`,
      field: 'spec.scope',
    });
  }
  const versions: any[] = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) required('spec.versions');
  const storage = versions.filter(v => v?.storage === true);
  if (versions.length > 0 && storage.length !== 1) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${JSON.stringify(versions.map(v => v?.name))}: must have exactly one version marked as storage version`,
      field: 'spec.versions',
    });
  }
  versions.forEach((v, i) =>
    causes.push(
      ...celCompileCauses(
        isObj(v?.schema) ? v.schema.openAPIV3Schema : undefined,
        `spec.versions[${i}].schema.openAPIV3Schema`,
      ),
    ),
  );
  const definitions: ResourceDefinition[] = versions
    .filter(v => v?.served === true && typeof v.name === 'string')
    .map(v => ({
      group,
      version: v.name,
      plural,
      kind,
      listKind:
        typeof names.listKind === 'string' ? names.listKind : `${kind}List`,
      singular:
        typeof names.singular === 'string'
          ? names.singular
          : kind.toLowerCase(),
      namespaced: spec.scope === 'Namespaced',
      ...(Array.isArray(names.shortNames)
        ? { shortNames: names.shortNames }
        : {}),
      ...(Array.isArray(names.categories)
        ? { categories: names.categories }
        : {}),
      statusSubresource: isObj(v.subresources) && isObj(v.subresources.status),
      schema: isObj(v.schema) ? (v.schema.openAPIV3Schema ?? {}) : {},
      ...(Array.isArray(v.additionalPrinterColumns)
        ? { printerColumns: v.additionalPrinterColumns }
        : {}),
    }));
  return { definitions, storageVersion: storage[0]?.name, causes };
}

/** The status kube-apiserver's CRD controllers converge to for an accepted CRD. */
export function acceptedCrdStatus(
  crd: Record<string, any>,
  now: string,
  previous?: Record<string, any>,
): Record<string, unknown> {
  const names = crd.spec?.names ?? {};
  const acceptedNames: Record<string, unknown> = {
    plural: names.plural,
    singular: names.singular ?? String(names.kind ?? '').toLowerCase(),
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    ...(names.shortNames ? { shortNames: names.shortNames } : {}),
    ...(names.categories ? { categories: names.categories } : {}),
  };
  const prevConditions: any[] = Array.isArray(previous?.conditions)
    ? previous!.conditions
    : [];
  const since = (type: string) =>
    prevConditions.find(c => c?.type === type && c.status === 'True')
      ?.lastTransitionTime ?? now;
  const storage = (crd.spec?.versions ?? []).find((v: any) => v?.storage)?.name;
  const stored: string[] = Array.isArray(previous?.storedVersions)
    ? [...previous!.storedVersions]
    : [];
  if (storage && !stored.includes(storage)) stored.push(storage);
  return {
    acceptedNames,
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
        lastTransitionTime: since('NamesAccepted'),
      },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
        lastTransitionTime: since('Established'),
      },
    ],
    storedVersions: stored,
  };
}
