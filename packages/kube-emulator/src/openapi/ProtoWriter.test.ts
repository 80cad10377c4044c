import { describe, expect, it } from '@jest/globals';
import { decodeFields, Msg } from './__testUtils__/decodeProto';
import { encodeVarint, ProtoWriter } from './ProtoWriter';

const varint = (v: number | bigint) => {
  const out: number[] = [];
  encodeVarint(v, out);
  return out;
};

describe('encodeVarint', () => {
  // Byte sequences from the protobuf encoding guide (https://protobuf.dev/programming-guides/encoding/).
  it.each([
    [0, [0x00]],
    [1, [0x01]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [150, [0x96, 0x01]],
    [300, [0xac, 0x02]],
    [16383, [0xff, 0x7f]],
    [16384, [0x80, 0x80, 0x01]],
    [2 ** 31 - 1, [0xff, 0xff, 0xff, 0xff, 0x07]],
    [2 ** 31, [0x80, 0x80, 0x80, 0x80, 0x08]],
    [2 ** 32, [0x80, 0x80, 0x80, 0x80, 0x10]],
    [Number.MAX_SAFE_INTEGER, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]],
    [(1n << 64n) - 1n, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
    // negative int64: 64-bit two's complement, always 10 bytes
    [-1, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
    [-2, [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
  ])('%p → %p', (value, bytes) => {
    expect(varint(value)).toEqual(bytes);
  });

  it('rejects values beyond 64 bits', () => {
    expect(() => varint(1n << 64n)).toThrow(RangeError);
  });

  it('round-trips int64 values at every power of two, either side, and their negatives', () => {
    const values: bigint[] = [0n, (1n << 63n) - 1n, -(1n << 63n)];
    for (let bits = 1n; bits < 64n; bits += 1n) values.push((1n << bits) - 1n, 1n << bits, -(1n << bits));
    for (const v of values.filter(x => x >= -(1n << 63n) && x < 1n << 63n)) {
      const [f] = decodeFields(new ProtoWriter().int64(1, v, true).finish());
      expect(BigInt.asIntN(64, f.varint!)).toBe(v);
    }
  });
});

describe('ProtoWriter', () => {
  it('writes the guide example: field 1 = 150 is 08 96 01', () => {
    expect([...new ProtoWriter().int64(1, 150).finish()]).toEqual([0x08, 0x96, 0x01]);
  });

  it('writes the guide string example: field 2 = "testing" is 12 07 74 65 73 74 69 6e 67', () => {
    expect(new ProtoWriter().string(2, 'testing').finish().toString('hex')).toBe('120774657374696e67');
  });

  it('writes an embedded message as a length-delimited field (1a 03 08 96 01)', () => {
    const inner = new ProtoWriter().int64(1, 150);
    expect(new ProtoWriter().message(3, inner).finish().toString('hex')).toBe('1a03089601');
  });

  it('skips proto3 zero values unless forced', () => {
    const w = new ProtoWriter().string(1, '').bool(2, false).int64(3, 0).double(4, 0);
    expect(w.finish().length).toBe(0);
    const forced = new ProtoWriter().string(1, '', true).bool(2, false, true).int64(3, 0, true);
    expect([...forced.finish()]).toEqual([0x0a, 0x00, 0x10, 0x00, 0x18, 0x00]);
  });

  it('writes a present but empty message (presence matters for `properties: {}`)', () => {
    expect([...new ProtoWriter().message(25, new ProtoWriter()).finish()]).toEqual([0xca, 0x01, 0x00]);
  });

  it('encodes doubles as fixed64 little-endian', () => {
    const buf = new ProtoWriter().double(7, 1.5).finish();
    expect(buf[0]).toBe((7 << 3) | 1);
    expect(buf.subarray(1).readDoubleLE(0)).toBe(1.5);
  });

  it('encodes multi-byte UTF-8 with its byte length', () => {
    const m = new Msg(new ProtoWriter().string(1, 'größe ✓').finish());
    expect(m.fields[0].bytes!.length).toBe(Buffer.byteLength('größe ✓'));
    expect(m.str(1)).toBe('größe ✓');
  });

  it('nests messages three levels deep with lengths over 127 bytes', () => {
    const long = 'x'.repeat(200);
    const w = new ProtoWriter()
      .string(1, 'top')
      .message(2, new ProtoWriter().message(3, new ProtoWriter().string(4, long)).int64(5, 7))
      .strings(6, ['a', 'b']);
    const m = new Msg(w.finish());
    expect(m.str(1)).toBe('top');
    expect(m.msg(2)!.msg(3)!.str(4)).toBe(long);
    expect(m.msg(2)!.varint(5)).toBe(7n);
    expect(m.strs(6)).toEqual(['a', 'b']);
  });

  it('rejects invalid field numbers', () => {
    expect(() => new ProtoWriter().string(0, 'x')).toThrow(RangeError);
    expect(() => new ProtoWriter().string(2 ** 29, 'x')).toThrow(RangeError);
  });
});
