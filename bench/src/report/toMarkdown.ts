import type { BenchResults } from './writeResults';

const fmt = (v: number, unit: string) => {
  if (!Number.isFinite(v)) return 'n/a';
  if (unit === 'ratio') return v.toFixed(2);
  if (unit === 'bool') return v ? 'yes' : 'no';
  if (Number.isInteger(v) || v >= 100) return v.toFixed(0);
  return v.toFixed(1);
};

/**
 * A Markdown table of a results file: one row per figure, one column per size, the target, and
 * ✅/❌ for each size the target applies to (what docs/performance.md shows).
 */
export function toMarkdown(given: BenchResults | BenchResults['figures']): string {
  // a dated results file, or latest.json (its figures only)
  const results = Array.isArray(given) ? { figures: given } : given;
  const sizes = [...new Set(results.figures.map(f => f.size))].sort((a, b) => a - b);
  const names = [...new Set(results.figures.map(f => f.name))];
  const header = `| figure | ${sizes.map(s => s.toLocaleString('en-US')).join(' | ')} | target |`;
  const rule = `|---|${sizes.map(() => '---:').join('|')}|---|`;
  const rows = names.map(name => {
    const bySize = new Map(results.figures.filter(f => f.name === name).map(f => [f.size, f]));
    const any = [...bySize.values()][0];
    const cells = sizes.map(s => {
      const f = bySize.get(s);
      if (!f) return '–';
      let mark = '';
      if (f.pass !== null) mark = f.pass ? ' ✅' : ' ❌';
      return `${fmt(f.value, f.unit)}${mark}`;
    });
    const target = [...bySize.values()].find(f => f.target)?.target;
    return `| ${name} (${any.unit}) | ${cells.join(' | ')} | ${target ? target.replace('<=', '≤').replace('>=', '≥') : ''} |`;
  });
  return [header, rule, ...rows].join('\n');
}
