/** An upper bound (every issue-7 target is "at most"), or a lower bound. */
export interface Target {
  op: '<=' | '>=';
  value: number;
}

/**
 * One line of the benchmark and one entry of `bench/results/*.json`. `target` and `pass` are null
 * for figures reported for context (a raw baseline time, a size the target does not apply to).
 */
export interface Figure {
  name: string;
  size: number;
  value: number;
  unit: string;
  target: string | null;
  pass: boolean | null;
  /** How it was measured (sample count, which process, caveats). */
  note?: string;
}

/** `<= 30` / `>= 1`: the target as written in the JSON. */
export function formatTarget(t: Target): string {
  return `${t.op} ${t.value}`;
}

/** A figure with its pass mark computed from `target` (a NaN value never passes). */
export function makeFigure(
  name: string,
  size: number,
  value: number,
  unit: string,
  target?: Target,
  note?: string,
): Figure {
  const rounded = Number.isFinite(value) ? Math.round(value * 1000) / 1000 : value;
  let pass: boolean | null = null;
  if (target) {
    pass = Number.isFinite(value) && (target.op === '<=' ? value <= target.value : value >= target.value);
  }
  return {
    name,
    size,
    value: rounded,
    unit,
    target: target ? formatTarget(target) : null,
    pass,
    ...(note ? { note } : {}),
  };
}

/** One printed line: name, size, value, unit, target, PASS/FAIL. */
export function formatFigure(f: Figure): string {
  let mark = '';
  if (f.pass !== null) mark = f.pass ? 'PASS' : 'FAIL';
  const value = Number.isFinite(f.value) ? String(f.value) : 'n/a';
  return [
    f.name.padEnd(44),
    String(f.size).padStart(6),
    value.padStart(11),
    f.unit.padEnd(8),
    (f.target ?? '').padEnd(10),
    mark.padEnd(4),
    f.note ? ` ${f.note}` : '',
  ].join(' ');
}
