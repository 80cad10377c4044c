import { describe, it, expect } from '@jest/globals';
import { connectionUri } from './connectionUri';

describe('connectionUri', () => {
  it.each([
    [
      {
        scheme: 'mysql',
        host: 'h',
        port: 3306,
        username: 'root',
        password: 'a@b:c/d',
        path: '/',
      },
      'mysql://root:a%40b%3Ac%2Fd@h:3306/',
    ],
    [{ scheme: 'redis', host: 'h', port: 6379 }, 'redis://h:6379'],
    [
      { scheme: 'redis', host: 'h', port: 6379, password: 'p' },
      'redis://:p@h:6379',
    ],
    [
      { scheme: 'amqp', host: 'h', port: 5672, username: 'u', path: '/%2F' },
      'amqp://u@h:5672/%2F',
    ],
  ])('%j → %s', (parts, expected) => {
    expect(connectionUri(parts)).toBe(expected);
  });

  it('round-trips credentials through the WHATWG URL parser', () => {
    const password = 'p@ss:w/rd?#%';
    const url = new URL(
      connectionUri({
        scheme: 'mysql',
        host: 'h',
        port: 1,
        username: 'r',
        password,
      }),
    );
    expect(decodeURIComponent(url.password)).toBe(password);
    expect(url.hostname).toBe('h');
  });
});
