import { badRequest } from './StatusError';

/** One parsed requirement of a label selector. */
export interface LabelRequirement {
  key: string;
  operator: 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';
  values: string[];
}

type Tok =
  | 'id'
  | 'eos'
  | '!'
  | '!='
  | '('
  | ')'
  | ','
  | '='
  | '=='
  | '>'
  | '<'
  | 'in'
  | 'notin';

interface Token {
  tok: Tok;
  lit: string;
}

const SPECIAL = '=!(),><';

/** apimachinery's label lexer: special symbols, keywords, and runs of anything else. */
function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (SPECIAL.includes(c)) {
      let j = i;
      while (j < input.length && SPECIAL.includes(input[j])) j++;
      // longest known symbol wins, as the upstream lexer does
      const run = input.slice(i, j);
      const sym = ['!=', '=='].find(s => run.startsWith(s)) ?? c;
      out.push({ tok: sym as Tok, lit: sym });
      i += sym.length;
      continue;
    }
    let j = i;
    while (j < input.length && !/\s/.test(input[j]) && !SPECIAL.includes(input[j])) j++;
    const lit = input.slice(i, j);
    out.push({ tok: lit === 'in' || lit === 'notin' ? lit : 'id', lit });
    i = j;
  }
  out.push({ tok: 'eos', lit: '' });
  return out;
}

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validateKey(key: string): void {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const ok =
    name.length > 0 &&
    name.length <= 63 &&
    NAME_RE.test(name) &&
    (prefix === undefined || (prefix.length > 0 && prefix.length <= 253 && DNS_SUBDOMAIN_RE.test(prefix)));
  if (!ok) {
    throw new Error(
      `key: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
}

function validateValue(value: string): void {
  if (value.length > 63 || (value !== '' && !NAME_RE.test(value))) {
    throw new Error(
      `values[0]: Invalid value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  /** In value position keywords are plain identifiers. */
  private asValue(t: Token): Token {
    return t.tok === 'in' || t.tok === 'notin' ? { tok: 'id', lit: t.lit } : t;
  }
  peek(): Token {
    return this.asValue(this.tokens[this.pos]);
  }
  next(): Token {
    return this.asValue(this.tokens[this.pos++]);
  }
  nextOperator(): Token {
    return this.tokens[this.pos++];
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek();
      if (t.tok === 'eos') return reqs;
      if (t.tok !== 'id' && t.tok !== '!') {
        throw new Error(`found '${t.lit}', expected: !, identifier, or 'end of string'`);
      }
      reqs.push(this.requirement());
      const after = this.next();
      if (after.tok === 'eos') return reqs;
      if (after.tok !== ',') {
        throw new Error(`found '${after.lit}', expected: ',' or 'end of string'`);
      }
      const n = this.peek();
      if (n.tok !== 'id' && n.tok !== '!') {
        throw new Error(`found '${n.lit}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next();
    let negated = false;
    if (t.tok === '!') {
      negated = true;
      t = this.next();
    }
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    validateKey(t.lit);
    const key = t.lit;
    const la = this.peek().tok;
    if (la === 'eos' || la === ',') {
      return { key, operator: negated ? '!' : 'exists', values: [] };
    }
    if (negated) throw new Error(`found '${this.peek().lit}', expected: ',' or 'end of string'`);
    const op = this.nextOperator();
    switch (op.tok) {
      case 'in':
      case 'notin':
        return { key, operator: op.tok, values: this.valueSet() };
      case '=':
      case '==':
      case '!=':
        return { key, operator: op.tok, values: [this.exactValue()] };
      case '>':
      case '<': {
        const v = this.exactValue();
        if (!/^[+-]?\d+$/.test(v)) {
          throw new Error(`for 'Gt', 'Lt' operators, the value must be an integer`);
        }
        return { key, operator: op.tok === '>' ? 'gt' : 'lt', values: [v] };
      }
      default:
        throw new Error(`found '${op.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  private exactValue(): string {
    const la = this.peek();
    if (la.tok === 'eos' || la.tok === ',') return '';
    const t = this.next();
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    validateValue(t.lit);
    return t.lit;
  }

  private valueSet(): string[] {
    const open = this.next();
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const values = new Set<string>();
    const first = this.peek();
    if (first.tok === ')') {
      this.next();
      values.add('');
      return [...values];
    }
    if (first.tok !== 'id' && first.tok !== ',') {
      throw new Error(`found '${first.lit}', expected: ',', ')' or identifier`);
    }
    for (;;) {
      const t = this.next();
      if (t.tok === 'id') {
        validateValue(t.lit);
        values.add(t.lit);
        const n = this.peek();
        if (n.tok === ',') {
          this.next();
          if (this.peek().tok === ')') {
            values.add('');
            this.next();
            return [...values];
          }
          continue;
        }
        if (n.tok === ')') {
          this.next();
          return [...values];
        }
        throw new Error(`found '${n.lit}', expected: ',' or ')'`);
      } else if (t.tok === ',') {
        // "(,a" and "(a,,b" carry empty values upstream
        values.add('');
        if (this.peek().tok === ')') {
          this.next();
          return [...values];
        }
      } else {
        throw new Error(`found '${t.lit}', expected: ',', or identifier`);
      }
    }
  }
}

/**
 * Parses a Kubernetes label selector (`k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a)`, `k`,
 * `!k`, `k>1`, `k<1`; comma = AND). Throws a 400 StatusError `unable to parse requirement: ...`.
 */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  try {
    return new Parser(lex(selector)).parse();
  } catch (e) {
    throw badRequest(`unable to parse requirement: ${(e as Error).message}`);
  }
}

/** True when `labels` satisfy every requirement (`!=` and `notin` match absent labels). */
export function matchesLabels(
  reqs: LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  for (const r of reqs) {
    const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
    const v = has ? labels![r.key] : undefined;
    let ok: boolean;
    switch (r.operator) {
      case 'in':
      case '=':
      case '==':
        ok = has && r.values.includes(v!);
        break;
      case 'notin':
      case '!=':
        ok = !has || !r.values.includes(v!);
        break;
      case 'exists':
        ok = has;
        break;
      case '!':
        ok = !has;
        break;
      case 'gt':
      case 'lt': {
        ok = false;
        if (has && /^[+-]?\d+$/.test(v!)) {
          const a = Number(v);
          const b = Number(r.values[0]);
          ok = r.operator === 'gt' ? a > b : a < b;
        }
        break;
      }
      default:
        ok = false;
    }
    if (!ok) return false;
  }
  return true;
}
