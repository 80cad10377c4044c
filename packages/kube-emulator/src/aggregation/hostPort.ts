import { isIP } from 'node:net';

/** `host:port` for a URL authority; IPv6 literals need brackets. */
export function hostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}
