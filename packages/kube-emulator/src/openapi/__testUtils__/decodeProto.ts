/** One decoded field: varints as bigint, fixed64 as the 8 raw bytes, length-delimited as bytes. */
export interface RawField {
  field: number;
  wireType: number;
  varint?: bigint;
  bytes?: Buffer;
}

function readVarint(buf: Buffer, start: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let pos = start;
  for (let i = 0; i < 10; i++) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const b = buf[pos++];
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7n;
  }
  throw new Error('varint longer than 10 bytes');
}

/** Decodes one message level into its fields, in wire order; throws on malformed input. */
export function decodeFields(buf: Buffer): RawField[] {
  const out: RawField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, next] = readVarint(buf, pos);
    pos = next;
    const field = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (field === 0) throw new Error('field number 0');
    if (wireType === 0) {
      const [v, p] = readVarint(buf, pos);
      out.push({ field, wireType, varint: v });
      pos = p;
    } else if (wireType === 1) {
      if (pos + 8 > buf.length) throw new Error('truncated fixed64');
      out.push({ field, wireType, bytes: buf.subarray(pos, pos + 8) });
      pos += 8;
    } else if (wireType === 2) {
      const [len, p] = readVarint(buf, pos);
      const end = p + Number(len);
      if (end > buf.length) throw new Error('truncated length-delimited field');
      out.push({ field, wireType, bytes: buf.subarray(p, end) });
      pos = end;
    } else {
      throw new Error(`unsupported wire type ${wireType}`);
    }
  }
  return out;
}

/** A message view with typed accessors by field number (test-only). */
export class Msg {
  readonly fields: RawField[];
  constructor(readonly buf: Buffer) {
    this.fields = decodeFields(buf);
  }
  all(field: number): RawField[] {
    return this.fields.filter(f => f.field === field);
  }
  has(field: number): boolean {
    return this.all(field).length > 0;
  }
  str(field: number): string | undefined {
    const f = this.all(field).pop();
    return f?.bytes?.toString('utf8');
  }
  strs(field: number): string[] {
    return this.all(field).map(f => f.bytes!.toString('utf8'));
  }
  varint(field: number): bigint | undefined {
    return this.all(field).pop()?.varint;
  }
  double(field: number): number | undefined {
    return this.all(field).pop()?.bytes?.readDoubleLE(0);
  }
  msg(field: number): Msg | undefined {
    const f = this.all(field).pop();
    return f?.bytes ? new Msg(f.bytes) : undefined;
  }
  msgs(field: number): Msg[] {
    return this.all(field).map(f => new Msg(f.bytes!));
  }
  /** gnostic `Named<T>` pairs (name 1, value 2) found in `field`, as a map of name → value message. */
  named(field: number): Map<string, Msg> {
    return new Map(this.msgs(field).map(m => [m.str(1)!, m.msg(2)!]));
  }
}
