import { invalid, type StatusCause } from '../StatusError';
import { queryBool } from '../queryParams';

/** How unknown fields in a request body are treated (contract §6.14). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Decoded `CreateOptions` / `UpdateOptions` / `PatchOptions` query parameters. */
export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  /** Who makes the change, as recorded in managedFields (the User-Agent's product when unset). */
  fieldManager?: string;
  /** Server-side apply only: take over the fields other managers own. */
  force: boolean;
}

const FIELD_VALIDATIONS = ['', 'Ignore', 'Strict', 'Warn'];

const notSupportedCause = (field: string, value: string, supported: string[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  field,
  message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map(s => JSON.stringify(s)).join(', ')}`,
});

/** `dryRun` values: only `All` exists (repeatable); anything else is a cause. */
export function dryRunCauses(values: string[]): StatusCause[] {
  return values.filter(v => v !== 'All').map(v => notSupportedCause('dryRun', v, ['All']));
}

/**
 * Parses the write query parameters of `kind` (`CreateOptions`, `UpdateOptions`,
 * `PatchOptions`): bad values are a 422 naming the parameter, as apimachinery's
 * ValidateCreateOptions and friends answer. `force` belongs to server-side apply (`apply`):
 * refused on every other patch; an apply must name its `fieldManager`.
 */
export function parseWriteOptions(
  query: URLSearchParams,
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  apply = false,
): WriteOptions {
  const causes: StatusCause[] = [];
  const dryRun = query.getAll('dryRun');
  causes.push(...dryRunCauses(dryRun));
  const fieldValidation = query.get('fieldValidation') ?? '';
  if (!FIELD_VALIDATIONS.includes(fieldValidation)) {
    causes.push(notSupportedCause('fieldValidation', fieldValidation, FIELD_VALIDATIONS));
  }
  const fieldManager = query.get('fieldManager') ?? undefined;
  if (fieldManager !== undefined) {
    if (fieldManager.length > 128) {
      causes.push({ reason: 'FieldValueTooLong', field: 'fieldManager', message: 'Too long: may not be more than 128 bytes' });
    } else if (/[^\x20-\x7e]/.test(fieldManager)) {
      causes.push({
        reason: 'FieldValueInvalid',
        field: 'fieldManager',
        message: `Invalid value: ${JSON.stringify(fieldManager)}: must only contain printable characters`,
      });
    }
  }
  const force = queryBool(query, 'force');
  if (kind === 'PatchOptions' && !apply && force !== undefined) {
    causes.push({ reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' });
  }
  if (apply && !fieldManager) {
    // kubectl defaults it to "kubectl"; controllers must set it
    causes.push({ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' });
  }
  if (causes.length) throw invalid(kind, 'meta.k8s.io', '', causes);
  return {
    dryRun: dryRun.length > 0,
    fieldValidation: (fieldValidation || 'Warn') as FieldValidation,
    force: apply && force === true,
    ...(fieldManager !== undefined ? { fieldManager } : {}),
  };
}
