import { X509Certificate } from 'node:crypto';

/**
 * The front-proxy and client-CA trust settings (contract §2.2), parsed from
 * `kube-system/extension-apiserver-authentication` or given by flags.
 */
export interface RequestHeaderConfig {
  /** CAs that sign the aggregator's front-proxy client certificate; empty = no front proxy trusted. */
  requestHeaderCAs: X509Certificate[];
  /** Allowed front-proxy CNs; empty = any CN signed by a requestheader CA. */
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
  /** CAs for direct x509 client certificates; empty = none accepted. */
  clientCAs: X509Certificate[];
}

/** Data keys of the ConfigMap kube-apiserver writes (contract §2.2). */
export const AUTHENTICATION_CONFIGMAP_NAMESPACE = 'kube-system';
export const AUTHENTICATION_CONFIGMAP_NAME =
  'extension-apiserver-authentication';

const PEM_BLOCK =
  /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Parses every certificate of a PEM bundle; throws naming `what` if one is unreadable. */
export function parsePemBundle(
  pem: string | undefined,
  what: string,
): X509Certificate[] {
  if (!pem) {
    return [];
  }
  const blocks = pem.match(PEM_BLOCK) ?? [];
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (e) {
      throw new Error(
        `${what}: certificate ${i + 1} is not valid PEM: ${(e as Error).message}`,
      );
    }
  });
}

function parseJsonStringArray(
  value: string | undefined,
  key: string,
): string[] {
  if (value === undefined || value.trim() === '' || value.trim() === 'null') {
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`${key}: not a JSON array of strings: ${value}`);
  }
  if (parsed === null) {
    return [];
  }
  if (!Array.isArray(parsed) || parsed.some(v => typeof v !== 'string')) {
    throw new Error(`${key}: not a JSON array of strings: ${value}`);
  }
  return (parsed as string[]).filter(s => s !== '');
}

/** Flag overrides; a set field wins over the ConfigMap's value. */
export interface RequestHeaderOverrides {
  requestHeaderClientCaPem?: string;
  allowedNames?: string[];
  usernameHeaders?: string[];
  uidHeaders?: string[];
  groupHeaders?: string[];
  extraHeaderPrefixes?: string[];
  clientCaPem?: string;
}

/**
 * Builds the trust settings from the ConfigMap's `data` (absent = empty) and flag overrides.
 * Header names are lower-cased (they are case-insensitive and Node lower-cases them).
 * Throws naming the bad key when a value cannot be parsed.
 */
export function parseRequestHeaderConfig(
  data: Record<string, string> | undefined,
  overrides: RequestHeaderOverrides = {},
): RequestHeaderConfig {
  const d = data ?? {};
  const lower = (xs: string[]) => xs.map(x => x.toLowerCase());
  return {
    requestHeaderCAs: parsePemBundle(
      overrides.requestHeaderClientCaPem ?? d['requestheader-client-ca-file'],
      'requestheader-client-ca-file',
    ),
    allowedNames:
      overrides.allowedNames ??
      parseJsonStringArray(
        d['requestheader-allowed-names'],
        'requestheader-allowed-names',
      ),
    usernameHeaders: lower(
      overrides.usernameHeaders ??
        parseJsonStringArray(
          d['requestheader-username-headers'],
          'requestheader-username-headers',
        ),
    ),
    uidHeaders: lower(
      overrides.uidHeaders ??
        parseJsonStringArray(
          d['requestheader-uid-headers'],
          'requestheader-uid-headers',
        ),
    ),
    groupHeaders: lower(
      overrides.groupHeaders ??
        parseJsonStringArray(
          d['requestheader-group-headers'],
          'requestheader-group-headers',
        ),
    ),
    extraHeaderPrefixes: lower(
      overrides.extraHeaderPrefixes ??
        parseJsonStringArray(
          d['requestheader-extra-headers-prefix'],
          'requestheader-extra-headers-prefix',
        ),
    ),
    clientCAs: parsePemBundle(
      overrides.clientCaPem ?? d['client-ca-file'],
      'client-ca-file',
    ),
  };
}
