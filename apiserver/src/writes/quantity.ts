/**
 * Kubernetes resource quantities (`10Gi`, `500M`, `1.5Gi`, `100m`, `1e3`), parsed exactly.
 * Values are held as integer nano-units in a bigint so that `100m` equals `0.1` and
 * `1Gi` equals `1073741824` without floating-point error. Precision below 1n is rounded up,
 * as apimachinery's resource.Quantity does.
 */

/** The syntax apimachinery accepts (same as the CRD `pattern` of int-or-string quantities). */
const QUANTITY =
  /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:([KMGTPE]i)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

/** The message apimachinery gives for a string that is not a quantity. */
export const QUANTITY_FORMAT_MESSAGE =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const NANO_EXPONENT = 9;
const BINARY: Record<string, number> = {
  Ki: 1,
  Mi: 2,
  Gi: 3,
  Ti: 4,
  Pi: 5,
  Ei: 6,
};
const DECIMAL: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

/** A parsed quantity: its text as given and its exact value in nano-units. */
export interface Quantity {
  text: string;
  nanos: bigint;
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** Divides rounding away from zero, so any non-zero fraction of a nano-unit still counts. */
function divideUp(value: bigint, divisor: bigint): bigint {
  const q = value / divisor;
  return value % divisor === 0n ? q : q + (value < 0n ? -1n : 1n);
}

/**
 * Parses a quantity given as a string or a JSON number (int-or-string fields may carry
 * `cpu: 2`). Undefined when the value is not a quantity.
 */
export function parseQuantity(value: unknown): Quantity | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') text = value;
  else return undefined;
  const match = QUANTITY.exec(text);
  if (!match) return undefined;
  const [, sign, number, binary, decimal, exponent] = match;
  const [whole, fraction = ''] = number.split('.');
  // The digits as one integer, and the power of ten that turns it into nano-units.
  let digits = BigInt(`${whole || '0'}${fraction}`);
  let scale = NANO_EXPONENT - fraction.length;
  if (decimal) scale += DECIMAL[decimal];
  if (exponent) {
    const e = Number(exponent);
    // Beyond this the value is not representable by any Kubernetes object anyway.
    if (!Number.isSafeInteger(e) || Math.abs(e) > 100) return undefined;
    scale += e;
  }
  if (binary) digits *= 1024n ** BigInt(BINARY[binary]);
  const nanos =
    scale >= 0 ? digits * pow10(scale) : divideUp(digits, pow10(-scale));
  return { text, nanos: sign === '-' ? -nanos : nanos };
}

/** True when `value` is a quantity in Kubernetes syntax. */
export const isQuantity = (value: unknown) =>
  parseQuantity(value) !== undefined;

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  if (a.nanos === b.nanos) return 0;
  return a.nanos < b.nanos ? -1 : 1;
}
