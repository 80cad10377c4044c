const NANO = 1_000_000_000n;
const BINARY: Array<[string, bigint]> = [
  'Ei',
  'Pi',
  'Ti',
  'Gi',
  'Mi',
  'Ki',
].map((s, i) => [s, 1024n ** BigInt(6 - i)]);
const DECIMAL: Array<[string, bigint]> = ['E', 'P', 'T', 'G', 'M', 'k'].map(
  (s, i) => [s, 1000n ** BigInt(6 - i)],
);

/**
 * Formats an amount held in nano-units the way a person would write it: bytes (`binary`) in the
 * largest exact binary unit (`45Gi`), else decimal unit (`500M`); CPU (`decimal`) in cores when
 * whole (`4`), else in millicores (`1500m`), else in the finest unit that is exact.
 */
export function formatQuantity(
  nanos: bigint,
  style: 'binary' | 'decimal',
): string {
  const sign = nanos < 0n ? '-' : '';
  const n = nanos < 0n ? -nanos : nanos;
  if (n === 0n) return '0';
  if (n % NANO !== 0n) {
    for (const [suffix, unit] of [
      ['m', 1_000_000n],
      ['u', 1000n],
    ] as const) {
      if (n % unit === 0n) return `${sign}${n / unit}${suffix}`;
    }
    return `${sign}${n}n`;
  }
  const whole = n / NANO;
  if (style === 'binary') {
    for (const [suffix, unit] of [...BINARY, ...DECIMAL]) {
      if (whole % unit === 0n) return `${sign}${whole / unit}${suffix}`;
    }
  }
  return `${sign}${whole}`;
}
