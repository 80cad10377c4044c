import { ResourceKey, StoreError } from './types';

/** One invalid field, serialised as a `metav1.StatusCause` (`reason` is the cause type). */
export interface FieldCause {
  reason: string;
  message: string;
  field: string;
}

/** `<plural>.<group>`, or just `<plural>` for the core group – how kube-apiserver names a resource in errors. */
export function qualifiedResource(
  key: Pick<ResourceKey, 'group' | 'plural'>,
): string {
  return key.group ? `${key.plural}.${key.group}` : key.plural;
}

/** `<Kind>.<group>`, or just `<Kind>` for the core group – how kube-apiserver names a kind in 422s. */
export function qualifiedKind(kind: string, group: string): string {
  return group ? `${kind}.${group}` : kind;
}

function details(key: Pick<ResourceKey, 'group' | 'plural'>, name: string) {
  return { name, group: key.group, kind: key.plural };
}

/** 404 NotFound for one object. */
export function notFoundError(
  key: Pick<ResourceKey, 'group' | 'plural'>,
  name: string,
): StoreError {
  return new StoreError(
    404,
    'NotFound',
    `${qualifiedResource(key)} "${name}" not found`,
    details(key, name),
  );
}

/** 409 AlreadyExists on create. */
export function alreadyExistsError(
  key: Pick<ResourceKey, 'group' | 'plural'>,
  name: string,
): StoreError {
  return new StoreError(
    409,
    'AlreadyExists',
    `${qualifiedResource(key)} "${name}" already exists`,
    details(key, name),
  );
}

/** 409 Conflict; without `detail` it is the optimistic-lock message kube-apiserver uses. */
export function conflictError(
  key: Pick<ResourceKey, 'group' | 'plural'>,
  name: string,
  detail = 'the object has been modified; please apply your changes to the latest version and try again',
): StoreError {
  return new StoreError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(key)} "${name}": ${detail}`,
    details(key, name),
  );
}

/** 403 Forbidden for writes into a namespace that is being deleted (NamespaceLifecycle admission). */
export function namespaceTerminatingError(
  key: Pick<ResourceKey, 'group' | 'plural'>,
  name: string,
  namespace: string,
): StoreError {
  return new StoreError(
    403,
    'Forbidden',
    `${qualifiedResource(key)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
    {
      ...details(key, name),
      causes: [
        {
          reason: 'NamespaceTerminating',
          message: `namespace ${namespace} is being terminated`,
          field: 'metadata.namespace',
        },
      ],
    },
  );
}

/** Renders one cause the way field.Error.Error() does: `<field>: <message>`. */
export function formatCause(cause: FieldCause): string {
  return cause.field ? `${cause.field}: ${cause.message}` : cause.message;
}

/**
 * 422 Invalid in kube-apiserver's shape: `<Kind>.<group> "<name>" is invalid: <causes>`,
 * several causes joined with `, ` inside `[...]`; details.kind is the Kind, not the plural.
 */
export function invalidError(
  kind: string,
  group: string,
  name: string,
  causes: FieldCause[],
): StoreError {
  const body =
    causes.length === 1
      ? formatCause(causes[0])
      : `[${causes.map(formatCause).join(', ')}]`;
  return new StoreError(
    422,
    'Invalid',
    `${qualifiedKind(kind, group)} "${name}" is invalid: ${body}`,
    {
      name,
      group,
      kind,
      causes,
    },
  );
}

/** 410 Expired for a resourceVersion older than the retained history. */
export function expiredError(rv: number | string, oldest: number): StoreError {
  return new StoreError(
    410,
    'Expired',
    `too old resource version: ${rv} (${oldest})`,
  );
}
