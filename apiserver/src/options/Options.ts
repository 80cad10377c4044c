/** Everything `main` needs to start the apiserver; parsed once from flags and env. */
export interface Options {
  /** --secure-port: HTTPS port (default 8443). */
  securePort: number;
  /** --bind-address: address to listen on (default 0.0.0.0). */
  bindAddress: string;
  /** --tls-cert-file / --tls-private-key-file: serving certificate (PEM). Both or neither. */
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** --kubeconfig: path to a kubeconfig; unset = in-cluster. */
  kubeconfig?: string;
  /** Overrides of `kube-system/extension-apiserver-authentication` (tests, clusters without it). */
  requestheader: {
    /** --requestheader-client-ca-file */
    clientCaFile?: string;
    /** --requestheader-allowed-names (comma-separated; an empty value means any CN) */
    allowedNames?: string[];
    /** --requestheader-username-headers, --requestheader-group-headers, --requestheader-extra-headers-prefix, --requestheader-uid-headers */
    usernameHeaders?: string[];
    groupHeaders?: string[];
    extraHeadersPrefix?: string[];
    uidHeaders?: string[];
  };
  /** --client-ca-file: CA for direct client certificates (overrides the ConfigMap's). */
  clientCaFile?: string;
  /** --authentication-config-refresh-seconds: re-read period of the ConfigMap (1..60, default 30). */
  authenticationConfigRefreshSeconds: number;
  /** --authentication-skip-lookup: do not read the ConfigMap (flags only). */
  authenticationSkipLookup: boolean;
  /** --disable-token-review: reject bearer tokens instead of asking kube-apiserver. */
  disableTokenReview: boolean;
  /** --authentication-token-webhook-cache-ttl-seconds (default 10). */
  authenticationCacheTtlSeconds: number;
  /** --authorization-webhook-cache-ttl-seconds: SubjectAccessReview cache for allow and deny (default 10). */
  authorizationCacheTtlSeconds: number;
  /** --watch-history-size: events kept for watch resumption (default 10000). */
  watchHistorySize: number;
  /** --watch-history-seconds: how long events are kept (default 600; contract asks ≥ 300). */
  watchHistorySeconds: number;
  /** --policy-configmap: `namespace/name` of the platform team's policy ConfigMap; unset = no limits. */
  policyConfigMap?: string;
  /** --engine-config: YAML file narrowing each engine's versions and setting its sizes; unset = the adapters' lists. */
  engineConfig?: string;
  /** --max-requests-inflight: gets and lists served at once, more get 429 (kube's default 400; 0 = no limit). */
  maxRequestsInflight: number;
  /** --max-mutating-requests-inflight: writes served at once, more get 429 (kube's default 200; 0 = no limit). */
  maxMutatingRequestsInflight: number;
  /** --read-header-timeout-seconds: a request's line and headers must arrive within (default 32, as kube-apiserver; 0 = unbounded). */
  readHeaderTimeoutSeconds: number;
  /** --read-timeout-seconds: a whole request, body included, must arrive within (default 60; 0 = unbounded). Responses (watches) are not bounded by it. */
  readTimeoutSeconds: number;
  /** --tls-handshake-timeout-seconds: the TLS handshake must end within (default 32, kube-apiserver's effective bound; 0 = unbounded). */
  tlsHandshakeTimeoutSeconds: number;
  /** --heap-settle-interval-seconds: at most one compaction of a quiet process's fragmented old space per interval (default 300; 0 = never; see heapSettler). */
  heapSettleIntervalSeconds: number;
}

/** The defaults, as `main` starts without any flag. */
export function defaultOptions(): Options {
  return {
    securePort: 8443,
    bindAddress: '0.0.0.0',
    requestheader: {},
    authenticationConfigRefreshSeconds: 30,
    authenticationSkipLookup: false,
    disableTokenReview: false,
    authenticationCacheTtlSeconds: 10,
    authorizationCacheTtlSeconds: 10,
    watchHistorySize: 10_000,
    watchHistorySeconds: 600,
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    readHeaderTimeoutSeconds: 32,
    readTimeoutSeconds: 60,
    tlsHandshakeTimeoutSeconds: 32,
    heapSettleIntervalSeconds: 300,
  };
}
