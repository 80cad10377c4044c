import { StoreError } from '../store/types';

/** One parsed label-selector requirement (apimachinery labels.Requirement). */
export interface LabelRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values: string[];
}

type Token = {
  kind: 'id' | 'op' | 'lp' | 'rp' | 'comma' | 'eof';
  text: string;
};

const SPECIAL = new Set([
  ' ',
  '\t',
  '\r',
  '\n',
  '(',
  ')',
  ',',
  '!',
  '=',
  '<',
  '>',
]);

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
    } else if (c === '(') {
      tokens.push({ kind: 'lp', text: c });
      i++;
    } else if (c === ')') {
      tokens.push({ kind: 'rp', text: c });
      i++;
    } else if (c === ',') {
      tokens.push({ kind: 'comma', text: c });
      i++;
    } else if (c === '!' || c === '=' || c === '<' || c === '>') {
      const two = input.slice(i, i + 2);
      if (two === '==' || two === '!=') {
        tokens.push({ kind: 'op', text: two });
        i += 2;
      } else {
        tokens.push({ kind: 'op', text: c });
        i++;
      }
    } else {
      let j = i;
      while (j < input.length && !SPECIAL.has(input[j])) j++;
      tokens.push({ kind: 'id', text: input.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'eof', text: '' });
  return tokens;
}

const QUALIFIED = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validKey(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  if (
    parts.length === 2 &&
    (!parts[0] || parts[0].length > 253 || !SUBDOMAIN.test(parts[0]))
  )
    return false;
  return name.length > 0 && name.length <= 63 && QUALIFIED.test(name);
}

function validValue(v: string): boolean {
  return v === '' || (v.length <= 63 && QUALIFIED.test(v));
}

const fail = (msg: string): never => {
  throw new StoreError(
    400,
    'BadRequest',
    `unable to parse requirement: ${msg}`,
  );
};

/**
 * Parses the full Kubernetes label-selector syntax (`k=v`, `k==v`, `k!=v`, `k in (a,b)`,
 * `k notin (a)`, `k`, `!k`, `k>1`, `k<1`; comma = AND). Throws StoreError 400 on errors.
 */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  const tokens = tokenize(selector);
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const reqs: LabelRequirement[] = [];
  if (peek().kind === 'eof') return reqs;
  for (;;) {
    let t = next();
    if (t.kind === 'op' && t.text === '!') {
      const key = next();
      if (key.kind !== 'id') fail(`found '${key.text}', expected: identifier`);
      if (!validKey(key.text))
        fail(
          `key: Invalid value: ${JSON.stringify(key.text)}: name part must consist of alphanumeric characters, '-', '_' or '.'`,
        );
      reqs.push({ key: key.text, operator: 'DoesNotExist', values: [] });
    } else {
      if (t.kind !== 'id')
        fail(`found '${t.text}', expected: !, identifier, or 'end of string'`);
      const key = t.text;
      if (!validKey(key))
        fail(
          `key: Invalid value: ${JSON.stringify(key)}: name part must consist of alphanumeric characters, '-', '_' or '.'`,
        );
      t = peek();
      if (t.kind === 'comma' || t.kind === 'eof') {
        reqs.push({ key, operator: 'Exists', values: [] });
      } else {
        next();
        let op: string | undefined;
        if (t.kind === 'id' && (t.text === 'in' || t.text === 'notin'))
          op = t.text;
        else if (t.kind === 'op') op = t.text;
        if (!op || op === '!')
          fail(`found '${t.text}', expected: in, notin, =, ==, !=, gt, lt`);
        if (op === 'in' || op === 'notin') {
          const lp = next();
          if (lp.kind !== 'lp') fail(`found '${lp.text}', expected: '('`);
          // `(a,,b)` and `(a,)` carry empty values, as in apimachinery; `()` is empty.
          const values: string[] = [];
          let cur: string | undefined;
          for (;;) {
            const v = next();
            if (v.kind === 'id' && cur === undefined) cur = v.text;
            else if (v.kind === 'comma' || v.kind === 'rp') {
              values.push(cur ?? '');
              cur = undefined;
              if (v.kind === 'rp') break;
            } else fail(`found '${v.text}', expected: ',', ')' or identifier`);
          }
          const clean = values.length === 1 && values[0] === '' ? [] : values;
          if (clean.length === 0)
            fail(
              `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`,
            );
          for (const v of clean)
            if (!validValue(v))
              fail(
                `values[0]: Invalid value: ${JSON.stringify(v)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.'`,
              );
          reqs.push({
            key,
            operator: op === 'in' ? 'In' : 'NotIn',
            values: clean,
          });
        } else {
          const v = peek();
          let value = '';
          if (v.kind === 'id') value = next().text;
          else if (v.kind !== 'comma' && v.kind !== 'eof')
            fail(`found '${v.text}', expected: identifier`);
          if (op === '>' || op === '<') {
            if (!/^-?\d+$/.test(value))
              fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
            reqs.push({
              key,
              operator: op === '>' ? 'Gt' : 'Lt',
              values: [value],
            });
          } else {
            if (!validValue(value))
              fail(
                `values[0][${key}]: Invalid value: ${JSON.stringify(value)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.'`,
              );
            reqs.push({
              key,
              operator: op === '!=' ? 'NotIn' : 'In',
              values: [value],
            });
          }
        }
      }
    }
    const sep = next();
    if (sep.kind === 'eof') return reqs;
    if (sep.kind !== 'comma')
      fail(`found '${sep.text}', expected: ',' or 'end of string'`);
  }
}

/** True when `labels` satisfy every requirement (`!=`/`notin` match objects without the label). */
export function matchesLabels(
  reqs: LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  return reqs.every(r => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.operator) {
      case 'In':
        return has && r.values.includes(l[r.key]);
      case 'NotIn':
        return !has || !r.values.includes(l[r.key]);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
      case 'Gt':
      case 'Lt': {
        if (!has || !/^-?\d+$/.test(l[r.key])) return false;
        const a = Number(l[r.key]);
        const b = Number(r.values[0]);
        return r.operator === 'Gt' ? a > b : a < b;
      }
      default:
        return false;
    }
  });
}
