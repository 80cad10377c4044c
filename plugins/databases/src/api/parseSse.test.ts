import { describe, expect, it } from '@jest/globals';
import { createSseParser } from './parseSse';

describe('createSseParser', () => {
  it.each([
    ['one event', ['event: instance\ndata: {"a":1}\n\n'], [{ event: 'instance', data: '{"a":1}' }]],
    ['default event name', ['data: x\n\n'], [{ event: 'message', data: 'x' }]],
    ['CRLF line ends', ['event: cluster\r\ndata: y\r\n\r\n'], [{ event: 'cluster', data: 'y' }]],
    ['multi-line data', ['data: a\ndata: b\n\n'], [{ event: 'message', data: 'a\nb' }]],
    ['comments and keep-alives', [': ping\n\n', 'data: z\n\n'], [{ event: 'message', data: 'z' }]],
    ['split across chunks', ['event: inst', 'ance\nda', 'ta: 1\n', '\n'], [{ event: 'instance', data: '1' }]],
    ['CRLF split between chunks', ['data: q\r', '\n\r\n'], [{ event: 'message', data: 'q' }]],
    ['no event without blank line', ['data: pending\n'], []],
  ])('%s', (_name, chunks, expected) => {
    const parse = createSseParser();
    const events = chunks.flatMap(c => parse(c)).map(({ event, data }) => ({ event, data }));
    expect(events).toEqual(expected);
  });

  it('keeps the last id', () => {
    const parse = createSseParser();
    expect(parse('id: 7\ndata: a\n\n')[0].id).toBe('7');
  });
});
