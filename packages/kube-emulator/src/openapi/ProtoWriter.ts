/** Protobuf wire types used by the encoder (varint, 64-bit, length-delimited). */
export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;

const TWO_POW_64 = 1n << 64n;

/**
 * Appends the base-128 varint of an unsigned 64-bit value. Negative inputs are written as their
 * 64-bit two's complement (10 bytes), which is how protobuf encodes negative int32/int64.
 */
export function encodeVarint(value: number | bigint, out: number[]): void {
  let v = BigInt(value);
  if (v < 0n) v += TWO_POW_64;
  if (v >= TWO_POW_64) throw new RangeError(`varint out of range: ${value}`);
  // Number arithmetic is faster and exact below 2^31; BigInt covers the rest.
  if (v < 0x80000000n) {
    let n = Number(v);
    while (n > 0x7f) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
    return;
  }
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

/**
 * A write-only protobuf message builder. Fields are appended in call order; proto3 zero values
 * ('' / false / 0 / empty lists) are skipped by the scalar helpers as Go's proto.Marshal does,
 * except where a field belongs to a oneof (use the `force` flag there, since presence is meaning).
 */
export class ProtoWriter {
  private readonly chunks: Buffer[] = [];
  private pending: number[] = [];

  private flush(): void {
    if (this.pending.length) {
      this.chunks.push(Buffer.from(this.pending));
      this.pending = [];
    }
  }

  private tag(field: number, wireType: number): void {
    if (!Number.isInteger(field) || field < 1 || field > 0x1fffffff) {
      throw new RangeError(`invalid field number ${field}`);
    }
    encodeVarint(field * 8 + wireType, this.pending);
  }

  /** A `string` field (UTF-8, length-delimited). */
  string(field: number, value: string | undefined, force = false): this {
    if (value === undefined || (value === '' && !force)) return this;
    return this.bytes(field, Buffer.from(value, 'utf8'), true);
  }

  /** A `repeated string` field: one length-delimited record per element. */
  strings(field: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.string(field, v, true);
    return this;
  }

  /** A `bool` field. */
  bool(field: number, value: boolean | undefined, force = false): this {
    if (value === undefined || (!value && !force)) return this;
    this.tag(field, WIRE_VARINT);
    this.pending.push(value ? 1 : 0);
    return this;
  }

  /** An `int64`/`int32`/`uint64` field (varint; negatives as 10-byte two's complement). */
  int64(field: number, value: number | bigint | undefined, force = false): this {
    if (value === undefined || ((value === 0 || value === 0n) && !force)) return this;
    if (typeof value === 'number' && !Number.isInteger(value)) {
      throw new RangeError(`int64 field ${field} given non-integer ${value}`);
    }
    this.tag(field, WIRE_VARINT);
    encodeVarint(value, this.pending);
    return this;
  }

  /** A `double` field (64-bit little-endian IEEE 754). */
  double(field: number, value: number | undefined, force = false): this {
    if (value === undefined || (value === 0 && !Object.is(value, -0) && !force)) return this;
    this.tag(field, WIRE_FIXED64);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.pending.push(...b);
    return this;
  }

  /** A length-delimited field holding raw bytes (or an already encoded message). */
  bytes(field: number, value: Uint8Array | undefined, force = false): this {
    if (value === undefined || (value.length === 0 && !force)) return this;
    this.tag(field, WIRE_LEN);
    encodeVarint(value.length, this.pending);
    this.flush();
    this.chunks.push(Buffer.from(value.buffer, value.byteOffset, value.length));
    return this;
  }

  /**
   * An embedded message field. A present but empty message is still written (presence of a
   * message field is meaningful, e.g. `properties: {}` or an Operation with no fields).
   */
  message(field: number, value: ProtoWriter | undefined): this {
    if (value === undefined) return this;
    return this.bytes(field, value.finish(), true);
  }

  /** The encoded message. */
  finish(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }
}
