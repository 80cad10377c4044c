import { compileRule } from './celProgram';
import type { FieldCause } from './storeErrors';

/** Why an `optionalOldSelf` rule is refused: it binds oldSelf to a CEL optional. */
export const OPTIONAL_OLD_SELF =
  'not supported by the emulator: oldSelf would be a CEL optional value, and @bufbuild/cel has no optional types';

const isObj = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The rules of a CRD schema that do not compile, as the causes kube-apiserver gives when the CRD
 * is written (`…properties[spec].x-kubernetes-validations[0].rule: Invalid value: …: compilation
 * failed: …`): a CRD is refused rather than stored with a rule nobody evaluates.
 */
export function celCompileCauses(schema: unknown, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  visit(schema, path, causes);
  return causes;
}

function visit(schema: unknown, path: string, causes: FieldCause[]): void {
  if (!isObj(schema)) return;
  const rules = schema['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    rules.forEach((rule, i) => {
      const at = `${path}.x-kubernetes-validations[${i}]`;
      if (rule?.optionalOldSelf === true)
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: true: ${OPTIONAL_OLD_SELF}`,
          field: `${at}.optionalOldSelf`,
        });
      for (const key of ['rule', 'messageExpression'] as const) {
        const text = rule?.[key];
        if (key === 'rule' && typeof text !== 'string') {
          causes.push({
            reason: 'FieldValueRequired',
            message: 'Required value',
            field: `${at}.rule`,
          });
          continue;
        }
        if (typeof text !== 'string') continue;
        const compiled = compileRule(text);
        if ('error' in compiled)
          causes.push({
            reason: 'FieldValueInvalid',
            message: `Invalid value: ${JSON.stringify(text)}: compilation failed: ${compiled.error}`,
            field: `${at}.${key}`,
          });
      }
    });
  }
  if (isObj(schema.properties))
    for (const [name, sub] of Object.entries(schema.properties))
      visit(sub, `${path}.properties[${name}]`, causes);
  if (isObj(schema.items)) visit(schema.items, `${path}.items`, causes);
  if (isObj(schema.additionalProperties))
    visit(schema.additionalProperties, `${path}.additionalProperties`, causes);
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(schema[key]))
      schema[key].forEach((sub: unknown, i: number) =>
        visit(sub, `${path}.${key}[${i}]`, causes),
      );
}
