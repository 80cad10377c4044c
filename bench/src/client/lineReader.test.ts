import { describe, expect, it } from '@jest/globals';
import { lineReader } from './lineReader';

describe('lineReader', () => {
  it('hands over each complete line once, across chunk boundaries, with the time its last chunk arrived', () => {
    const lines: Array<{ line: string; at: number }> = [];
    const reader = lineReader((line, at) => lines.push({ line, at }));
    const before = performance.timeOrigin + performance.now();
    for (const chunk of ['{"type":"ADDED"}\n{"ty', 'pe":"MODI', 'FIED"}\n\ndata: x\n', 'partial']) reader.read(Buffer.from(chunk));
    expect(lines.map(l => l.line)).toEqual(['{"type":"ADDED"}', '{"type":"MODIFIED"}', '', 'data: x']);
    expect(lines.every(l => l.at >= before && l.at <= performance.timeOrigin + performance.now())).toBe(true);
    expect(reader.bytes()).toBe(Buffer.byteLength('{"type":"ADDED"}\n{"type":"MODIFIED"}\n\ndata: x\npartial'));
  });
});
