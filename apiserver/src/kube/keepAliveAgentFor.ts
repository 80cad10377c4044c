import { createHash } from 'node:crypto';
import https from 'node:https';

// What makes two TLS connections interchangeable: the same trust, the same client identity.
const TLS_OPTIONS = [
  'ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername', 'ciphers',
  'crl', 'secureOptions', 'secureProtocol', 'ecdhCurve', 'honorCipherOrder', 'dhparam', 'sessionIdContext',
] as const;

// client-go closes idle connections after 90 s; Node's agent also retires a socket a second
// before the idle timeout a server announces (`Keep-Alive: timeout=N`).
const IDLE_TIMEOUT_MS = 90_000;
const MAX_AGENTS = 16;

const agents = new Map<string, https.Agent>();

function fingerprint(options: https.AgentOptions): string {
  const hash = createHash('sha256');
  for (const name of TLS_OPTIONS) {
    const values = [(options as Record<string, unknown>)[name]].flat();
    hash.update(`${name}:${values.length}\0`);
    for (const v of values) {
      if (Buffer.isBuffer(v)) hash.update(v);
      else if (v === undefined) hash.update('\u0001undefined');
      else hash.update(typeof v === 'object' ? JSON.stringify(v) : String(v));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/**
 * The keep-alive agent for a request's TLS material, shared by every request with the same
 * material.
 *
 * `KubeConfig.applyToHTTPSOptions` of @kubernetes/client-node gives every call a new
 * `https.Agent`, so every TokenReview, SubjectAccessReview and write to kube-apiserver was a new
 * TCP connection and a full TLS handshake with the client certificate (in both processes).
 * client-go keeps its connections. A rotated certificate or CA is other material: a new agent,
 * new connections; agents beyond the last 16 are dropped (their idle sockets close on their own).
 */
export function keepAliveAgentFor(options: https.AgentOptions): https.Agent {
  const key = fingerprint(options);
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // re-inserted last: the map is oldest first
  } else {
    agent = new https.Agent({ ...options, keepAlive: true, timeout: IDLE_TIMEOUT_MS, scheduling: 'lifo' });
  }
  agents.set(key, agent);
  for (const oldest of agents.keys()) {
    if (agents.size <= MAX_AGENTS) break;
    agents.delete(oldest);
  }
  return agent;
}
