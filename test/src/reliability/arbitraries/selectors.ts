import fc from 'fast-check';
import { hostileString, nastyFragment } from './hostileStrings';

const labelKey = () =>
  fc.oneof(
    fc.constantFrom('app', 'backstage.io/kubernetes-id', 'dbaas.platform.dev/engine', 'tier', 'a.b/c'),
    fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8})?$/),
    hostileString(12),
  );
const labelValue = () => fc.oneof(fc.stringMatching(/^[a-z0-9]{0,8}$/), hostileString(12));

/** One term of a label selector: well-formed (`k in (a,b)`, `!k`, `k>3`), or broken. */
const labelTerm = () =>
  fc.oneof(
    fc.tuple(labelKey(), fc.constantFrom('=', '==', '!='), labelValue()).map(([k, op, v]) => `${k}${op}${v}`),
    fc
      .tuple(labelKey(), fc.constantFrom(' in ', ' notin ', ' in', 'in ', ' IN '), fc.array(labelValue(), { maxLength: 4 }))
      .map(([k, op, vs]) => `${k}${op}(${vs.join(',')})`),
    labelKey().map(k => `!${k}`),
    labelKey(),
    fc.tuple(labelKey(), fc.constantFrom('>', '<', '>=', '<<'), fc.oneof(fc.integer().map(String), labelValue())).map(([k, op, v]) => `${k}${op}${v}`),
    fc.array(nastyFragment(), { minLength: 1, maxLength: 5 }).map(p => p.join('')),
  );

/** A label selector: comma-joined terms of every shape, unbalanced parentheses, or noise. */
export function labelSelector(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(labelTerm(), { minLength: 1, maxLength: 4 }).map(t => t.join(',')) },
    { weight: 1, arbitrary: fc.constantFrom('(', ')', 'a in (b', 'a in b)', 'a in ()', ',', 'a,,b', '!', '!!a', 'a=b=c', 'a in (b,c', 'in', 'notin (a)') },
    { weight: 1, arbitrary: hostileString(60) },
  );
}

const fieldName = () =>
  fc.oneof(
    fc.constantFrom('metadata.name', 'metadata.namespace', 'spec.engine', 'status.phase', 'spec.topology', 'metadata.labels', 'spec'),
    hostileString(16),
  );

/** A field selector: supported and unsupported fields, every operator, escapes, noise. */
export function fieldSelector(): fc.Arbitrary<string> {
  const term = fc.oneof(
    fc.tuple(fieldName(), fc.constantFrom('=', '==', '!=', '=!', '~', ''), hostileString(16)).map(([f, op, v]) => `${f}${op}${v}`),
    fc.tuple(fieldName(), hostileString(8)).map(([f, v]) => `${f}\\=${v}`),
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(term, { minLength: 1, maxLength: 3 }).map(t => t.join(',')) },
    { weight: 1, arbitrary: hostileString(60) },
  );
}
