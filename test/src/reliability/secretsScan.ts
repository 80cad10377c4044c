import type { KubeEmulator } from '@internal/kube-emulator';

const CORE_SECRETS = { group: '', version: 'v1', plural: 'secrets' };
const CORE_EVENTS = { group: '', version: 'v1', plural: 'events' };
/** Data keys that hold a credential in the operators' Secrets (MariaDB, MySQL, Redis, RabbitMQ, ECK). */
const CREDENTIAL_KEY = /password|^elastic$/i;

/** A credential and the forms a leak could take (as is, base64, JSON-escaped). */
export interface KnownSecret {
  where: string;
  value: string;
  forms: string[];
}

/** Every credential held in a Secret of the given namespaces, as the operators and the apiserver wrote them. */
export function credentialsIn(emulator: KubeEmulator, namespaces: readonly string[]): KnownSecret[] {
  const out: KnownSecret[] = [];
  for (const ns of namespaces) {
    for (const secret of emulator.store.list(CORE_SECRETS, ns) as any[]) {
      for (const [key, encoded] of Object.entries<string>(secret.data ?? {})) {
        if (!CREDENTIAL_KEY.test(key)) continue;
        const value = Buffer.from(encoded, 'base64').toString('utf8');
        if (value.length < 8) continue;
        out.push({ where: `${ns}/${secret.metadata.name}[${key}]`, value, forms: [value, encoded, JSON.stringify(value).slice(1, -1)] });
      }
    }
  }
  return out;
}

/** The first credential found in `text`, described, or undefined. */
export function leakIn(text: string, secrets: readonly KnownSecret[]): string | undefined {
  for (const s of secrets) {
    const index = s.forms.findIndex(f => text.includes(f));
    if (index >= 0) return `${s.where} (as ${['plain text', 'base64', 'escaped'][index]})`;
  }
  return undefined;
}

/** Every Kubernetes Event in the cluster, serialised. */
export function eventsText(emulator: KubeEmulator): { count: number; text: string } {
  const events = emulator.store.list(CORE_EVENTS);
  return { count: events.length, text: JSON.stringify(events) };
}
