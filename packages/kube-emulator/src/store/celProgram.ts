import { celEnv, isCelError, parse, plan, type CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/**
 * The CEL environment of CRD validation rules. kube-apiserver adds the strings extension and
 * Kubernetes' own libraries (lists, regex, url, quantity, ip, cidr, format); only the extension
 * is here: a rule that calls one of the others does not compile, so its CRD is refused (fail
 * closed) instead of having the rule skipped.
 */
const ENV = celEnv({ funcs: strings });

type Expr = ReturnType<typeof parse>['expr'];

/** Identifiers a rule may use besides its variables: CEL's type denotations. */
const TYPE_NAMES = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'timestamp',
  'type',
  'uint',
]);

export type CelProgram = (vars: {
  self: unknown;
  oldSelf?: unknown;
}) => CelResult;

export interface CompiledRule {
  program: CelProgram;
  /** A transition rule: it reads `oldSelf`, so it runs only on an update with an old value. */
  usesOldSelf: boolean;
}

const cache = new Map<string, CompiledRule | { error: string }>();

/**
 * Parses a rule and resolves every identifier and function in it, as kube-apiserver's compiler
 * does when a CRD is written; the error is worded as cel-go words it.
 */
export function compileRule(rule: string): CompiledRule | { error: string } {
  let compiled = cache.get(rule);
  if (!compiled) {
    compiled = compile(rule);
    cache.set(rule, compiled);
  }
  return compiled;
}

function compile(rule: string): CompiledRule | { error: string } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(rule);
  } catch (e) {
    return { error: `ERROR: ${(e as Error).message}` };
  }
  const refs = { oldSelf: false, problems: [] as string[] };
  resolve(parsed.expr, new Set(['self', 'oldSelf']), refs);
  if (refs.problems.length) return { error: refs.problems.join('; ') };
  const run = plan(ENV, parsed) as (ctx: Record<string, unknown>) => CelResult;
  return {
    usesOldSelf: refs.oldSelf,
    program: vars => run(vars as Record<string, unknown>),
  };
}

function resolve(
  expr: Expr | undefined,
  scope: Set<string>,
  refs: { oldSelf: boolean; problems: string[] },
): void {
  const kind = expr?.exprKind;
  switch (kind?.case) {
    case 'identExpr': {
      const name = kind.value.name;
      if (name === 'oldSelf') refs.oldSelf = true;
      if (!scope.has(name) && !TYPE_NAMES.has(name))
        refs.problems.push(
          `ERROR: undeclared reference to '${name}' (in container '')`,
        );
      return;
    }
    case 'selectExpr':
      resolve(kind.value.operand, scope, refs);
      return;
    case 'callExpr': {
      const fn = kind.value.function;
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(fn) && !ENV.funcs.find(fn))
        refs.problems.push(
          `ERROR: undeclared reference to '${fn}' (in container '')`,
        );
      resolve(kind.value.target, scope, refs);
      kind.value.args.forEach(a => resolve(a, scope, refs));
      return;
    }
    case 'listExpr':
      kind.value.elements.forEach(e => resolve(e, scope, refs));
      return;
    case 'structExpr':
      kind.value.entries.forEach(e => {
        if (e.keyKind.case === 'mapKey') resolve(e.keyKind.value, scope, refs);
        resolve(e.value, scope, refs);
      });
      return;
    case 'comprehensionExpr': {
      const c = kind.value;
      resolve(c.iterRange, scope, refs);
      resolve(c.accuInit, scope, refs);
      const inner = new Set([...scope, c.iterVar, c.accuVar]);
      if (c.iterVar2) inner.add(c.iterVar2);
      resolve(c.loopCondition, inner, refs);
      resolve(c.loopStep, inner, refs);
      resolve(c.result, new Set([...scope, c.accuVar]), refs);
      return;
    }
    default:
      return;
  }
}

/** cel-go's wording of the runtime errors a rule's author sees in kube-apiserver's answers. */
export function celErrorText(result: CelResult): string | undefined {
  if (!isCelError(result)) return undefined;
  const m = /^field not found: (.*)$/.exec(result.message);
  return m ? `no such key: ${m[1]}` : result.message;
}
