import { defaultOptions, type Options } from './Options';

type Kind = 'int' | 'string' | 'list' | 'bool';

/** Flag name → kind and where it goes. */
const FLAGS: Record<string, { kind: Kind; set: (o: Options, v: any) => void }> =
  {
    'secure-port': { kind: 'int', set: (o, v) => (o.securePort = v) },
    'bind-address': { kind: 'string', set: (o, v) => (o.bindAddress = v) },
    'tls-cert-file': { kind: 'string', set: (o, v) => (o.tlsCertFile = v) },
    'tls-private-key-file': {
      kind: 'string',
      set: (o, v) => (o.tlsKeyFile = v),
    },
    kubeconfig: { kind: 'string', set: (o, v) => (o.kubeconfig = v) },
    'requestheader-client-ca-file': {
      kind: 'string',
      set: (o, v) => (o.requestheader.clientCaFile = v),
    },
    'requestheader-allowed-names': {
      kind: 'list',
      set: (o, v) => (o.requestheader.allowedNames = v),
    },
    'requestheader-username-headers': {
      kind: 'list',
      set: (o, v) => (o.requestheader.usernameHeaders = v),
    },
    'requestheader-group-headers': {
      kind: 'list',
      set: (o, v) => (o.requestheader.groupHeaders = v),
    },
    'requestheader-extra-headers-prefix': {
      kind: 'list',
      set: (o, v) => (o.requestheader.extraHeadersPrefix = v),
    },
    'requestheader-uid-headers': {
      kind: 'list',
      set: (o, v) => (o.requestheader.uidHeaders = v),
    },
    'client-ca-file': { kind: 'string', set: (o, v) => (o.clientCaFile = v) },
    'policy-configmap': {
      kind: 'string',
      set: (o, v) => (o.policyConfigMap = v),
    },
    'engine-config': { kind: 'string', set: (o, v) => (o.engineConfig = v) },
    'authentication-config-refresh-seconds': {
      kind: 'int',
      set: (o, v) => (o.authenticationConfigRefreshSeconds = v),
    },
    'authentication-skip-lookup': {
      kind: 'bool',
      set: (o, v) => (o.authenticationSkipLookup = v),
    },
    'disable-token-review': {
      kind: 'bool',
      set: (o, v) => (o.disableTokenReview = v),
    },
    'authentication-token-webhook-cache-ttl-seconds': {
      kind: 'int',
      set: (o, v) => (o.authenticationCacheTtlSeconds = v),
    },
    'authorization-webhook-cache-ttl-seconds': {
      kind: 'int',
      set: (o, v) => (o.authorizationCacheTtlSeconds = v),
    },
    'watch-history-size': {
      kind: 'int',
      set: (o, v) => (o.watchHistorySize = v),
    },
    'heap-settle-interval-seconds': {
      kind: 'int',
      set: (o, v) => (o.heapSettleIntervalSeconds = v),
    },
    'watch-history-seconds': {
      kind: 'int',
      set: (o, v) => (o.watchHistorySeconds = v),
    },
    'max-requests-inflight': {
      kind: 'int',
      set: (o, v) => (o.maxRequestsInflight = v),
    },
    'max-mutating-requests-inflight': {
      kind: 'int',
      set: (o, v) => (o.maxMutatingRequestsInflight = v),
    },
    'read-header-timeout-seconds': {
      kind: 'int',
      set: (o, v) => (o.readHeaderTimeoutSeconds = v),
    },
    'read-timeout-seconds': {
      kind: 'int',
      set: (o, v) => (o.readTimeoutSeconds = v),
    },
    'tls-handshake-timeout-seconds': {
      kind: 'int',
      set: (o, v) => (o.tlsHandshakeTimeoutSeconds = v),
    },
  };

/** Environment variable read when a flag is absent: `DBAAS_APISERVER_SECURE_PORT` for --secure-port. */
export function envName(flag: string): string {
  return `DBAAS_APISERVER_${flag.toUpperCase().replace(/-/g, '_')}`;
}

function convert(
  flag: string,
  kind: Kind,
  raw: string,
): { value?: unknown; error?: string } {
  switch (kind) {
    case 'int':
      return /^-?\d+$/.test(raw.trim())
        ? { value: Number(raw.trim()) }
        : { error: `--${flag}: "${raw}" is not an integer` };
    case 'bool':
      if (['', 'true', '1'].includes(raw.toLowerCase())) return { value: true };
      if (['false', '0'].includes(raw.toLowerCase())) return { value: false };
      return { error: `--${flag}: "${raw}" is not a boolean` };
    case 'list':
      return {
        value: raw
          .split(',')
          .map(s => s.trim())
          .filter(Boolean),
      };
    default:
      return { value: raw };
  }
}

/**
 * Parses `--flag=value`, `--flag value` and bare boolean flags; a flag not given falls back
 * to its `DBAAS_APISERVER_*` environment variable, then to the default. Returns every problem
 * (unknown flag, missing or unparseable value), each naming its flag; nothing below `main`
 * reads `process.env`.
 */
export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined> = {},
): { options: Options; errors: string[] } {
  const options = defaultOptions();
  const errors: string[] = [];
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      errors.push(`unexpected argument "${arg}"`);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = FLAGS[name];
    if (!spec) {
      errors.push(`--${name}: unknown flag`);
      continue;
    }
    if (eq >= 0) {
      given.set(name, arg.slice(eq + 1));
    } else if (spec.kind === 'bool') {
      given.set(name, 'true');
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      given.set(name, argv[++i]);
    } else {
      errors.push(`--${name}: missing value`);
    }
  }
  for (const [name, spec] of Object.entries(FLAGS)) {
    const raw = given.get(name) ?? env[envName(name)];
    if (raw === undefined) {
      continue;
    }
    const { value, error } = convert(name, spec.kind, raw);
    if (error) {
      errors.push(error);
    } else {
      spec.set(options, value);
    }
  }
  return { options, errors };
}
