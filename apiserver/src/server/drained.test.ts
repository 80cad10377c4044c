import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { drained } from './respond';

/** A response with a socket (an HTTP/2 stream, as the compatibility API hands it), both event emitters. */
function fakeResponse() {
  const socket = new EventEmitter();
  const res = Object.assign(new EventEmitter(), { socket, closed: false, destroyed: false });
  return { res: res as unknown as ServerResponse & EventEmitter, socket };
}

describe('drained', () => {
  it('lets writers that wait at once share one wait: one listener on the response and on its stream, gone after the drain', async () => {
    const { res, socket } = fakeResponse();
    const waits = Array.from({ length: 20 }, () => drained(res));
    expect(res.listenerCount('drain')).toBe(1);
    expect(socket.listenerCount('drain')).toBe(1);
    socket.emit('drain');
    await Promise.all(waits);
    expect(res.listenerCount('drain') + res.listenerCount('close') + socket.listenerCount('drain')).toBe(0);
    // the next wait is a new one
    const next = drained(res);
    expect(next).not.toBe(waits[0]);
    res.emit('close');
    await next;
  });

  it('resolves at once for a closed response, and keeps nothing', async () => {
    const { res } = fakeResponse();
    (res as any).closed = true;
    await drained(res);
    expect(res.listenerCount('drain')).toBe(0);
    (res as any).closed = false;
    const later = drained(res);
    expect(res.listenerCount('drain')).toBe(1);
    res.emit('drain');
    await later;
  });
});
