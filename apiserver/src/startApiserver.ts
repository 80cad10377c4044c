import { readFileSync } from 'node:fs';
import { adapters as allAdapters } from './adapters/registry';
import type { OperatorAdapter } from './adapters/types';
import {
  DelegatingAuthenticator,
  KubeSubjectAccessReviewer,
  KubeTokenReviewer,
  RequestHeaderConfigSource,
  StaticRequestHeaderConfig,
  SubjectAccessReviewAuthorizer,
  kubeConfigMapReader,
  parseRequestHeaderConfig,
  type RequestHeaderConfig,
  type RequestHeaderConfigProvider,
  type RequestHeaderOverrides,
} from './auth';
import { BackupStore } from './backups/BackupStore';
import { ScheduleStore } from './backups/ScheduleStore';
import { InstanceBackupIndex } from './backups/InstanceBackupIndex';
import { InformerInstanceStore } from './cache';
import { ReadySpecRecorder } from './cache/ReadySpecRecorder';
import { FailedRestoreRecorder } from './cache/FailedRestoreRecorder';
import { loadEngineConfig, validationContexts } from './engines';
import { BindingSecrets } from './binding/BindingSecrets';
import { EventMirror } from './events/EventMirror';
import { EVENTS } from './events/mirroredEvent';
import { UncachedStream } from './kube/uncachedStream';
import { clusterResourceVersion, createKubeConfig, KubeApiWriter, kubeInformerFactory, SECRETS } from './kube';
import type { Options } from './options/Options';
import {
  ConfigMapPolicyChecker,
  PolicySource,
  kubeNamespaceLabels,
  kubePolicyConfigMapWatch,
  kubePolicyReader,
  type PolicyConfigMapWatch,
} from './policy';
import { createApp, type DatabasesApp } from './server/createApp';
import { consoleLogger, type Logger } from './server/logger';
import { startHeapSettler } from './memory/heapSettler';
import type { PolicyChecker } from './server/mutate';
import { startServer, type RunningServer } from './server/startServer';

/** A running apiserver (what `main` and the tests hold). */
export interface RunningApiserver {
  port: number;
  /** The HTTPS server (HTTP/1.1 and HTTP/2): its sessions and connections. */
  server: RunningServer;
  app: DatabasesApp;
  store: InformerInstanceStore;
  /** Every backup run, as DatabaseBackups (see BackupStore). */
  backups: BackupStore;
  /** Every backup schedule served, as DatabaseBackupSchedules (see ScheduleStore). */
  schedules: ScheduleStore;
  /** Records each instance's last Ready spec on its operator object (see ReadySpecRecorder). */
  readySpecs: Pick<ReadySpecRecorder, 'idle'>;
  /** Mirrors the operators' events onto the instances (see EventMirror). */
  events: Pick<EventMirror, 'idle'>;
  /** Keeps each instance's Service Binding Secret (see BindingSecrets). */
  bindings: Pick<BindingSecrets, 'idle'>;
  /**
   * Graceful shutdown (contract §10.6): unready at once, keep serving `delayMs`, then stop
   * accepting connections, end every watch cleanly and let requests in flight finish. With
   * `graceMs`, connections still open that long after the call are closed (requests cut), so
   * the whole shutdown is bounded.
   */
  shutdown(delayMs?: number, graceMs?: number): Promise<void>;
}

/** Longest the instances wait for the backup stores before they are served without them. */
const BACKUPS_SYNC_WAIT_MS = 10_000;

function overridesFrom(options: Options): RequestHeaderOverrides {
  const rh = options.requestheader;
  return {
    ...(rh.clientCaFile ? { requestHeaderClientCaPem: readFileSync(rh.clientCaFile, 'utf8') } : {}),
    ...(rh.allowedNames ? { allowedNames: rh.allowedNames } : {}),
    ...(rh.usernameHeaders ? { usernameHeaders: rh.usernameHeaders } : {}),
    ...(rh.groupHeaders ? { groupHeaders: rh.groupHeaders } : {}),
    ...(rh.extraHeadersPrefix ? { extraHeaderPrefixes: rh.extraHeadersPrefix } : {}),
    ...(rh.uidHeaders ? { uidHeaders: rh.uidHeaders } : {}),
    ...(options.clientCaFile ? { clientCaPem: readFileSync(options.clientCaFile, 'utf8') } : {}),
  };
}

/** PEM trust anchors offered to TLS clients so they pick the right client certificate. */
function clientCaBundle(config: RequestHeaderConfig | undefined): string | undefined {
  if (!config) return undefined;
  const pems = [...config.requestHeaderCAs, ...config.clientCAs].map(c => c.toString());
  return pems.length ? pems.join('\n') : undefined;
}

/**
 * Wires the apiserver from validated options: kubeconfig → delegated authn/authz → informer
 * cache over every adapter → writes (KubeApiWriter, policy) → HTTP app → HTTPS server.
 */
export async function startApiserver(
  options: Options,
  deps: {
    logger?: Logger;
    adapters?: readonly OperatorAdapter[];
    bookmarkIntervalMs?: number;
    /** The platform team's limits for creates and updates; default: none. */
    policy?: PolicyChecker;
    /** Timeout of each write to kube-apiserver (default 5 s: writes fail fast, never hang). */
    writeTimeoutMs?: number;
    /** How long a watch must fail before the instances built from it carry `Stale` (default 3 s). */
    staleAfterMs?: number;
  } = {},
): Promise<RunningApiserver> {
  const logger = deps.logger ?? consoleLogger;
  // Before anything starts: a bad engine config refuses the start (main reports it earlier, alike).
  const loadedEngines = loadEngineConfig(options.engineConfig, deps.adapters ?? allAdapters);
  if ('errors' in loadedEngines) throw new Error(`--engine-config: ${loadedEngines.errors.join('; ')}`);
  const engineConfig = loadedEngines.config;
  const kc = createKubeConfig({ kubeconfig: options.kubeconfig });

  let headerConfig: RequestHeaderConfigProvider & { problems?: () => string[] };
  let source: RequestHeaderConfigSource | undefined;
  if (options.authenticationSkipLookup) {
    headerConfig = new StaticRequestHeaderConfig(
      parseRequestHeaderConfig(undefined, overridesFrom(options)),
    );
  } else {
    source = new RequestHeaderConfigSource({
      read: kubeConfigMapReader(kc),
      overrides: overridesFrom(options),
      refreshIntervalMs: options.authenticationConfigRefreshSeconds * 1000,
      logger,
    });
    await source.start();
    headerConfig = source;
  }

  const authenticator = new DelegatingAuthenticator({
    config: headerConfig,
    tokenReviewer: options.disableTokenReview ? undefined : new KubeTokenReviewer(kc),
    tokenCacheTtlMs: options.authenticationCacheTtlSeconds * 1000,
    logger,
  });
  const authorizer = new SubjectAccessReviewAuthorizer({
    reviewer: new KubeSubjectAccessReviewer(kc),
    cacheTtlMs: options.authorizationCacheTtlSeconds * 1000,
  });

  // The platform team's policy ConfigMap (no flag: no limits). Selector rules need namespace labels.
  let policy = deps.policy;
  let policySource: PolicySource | undefined;
  let policyWatch: PolicyConfigMapWatch | undefined;
  let namespaceLabels: ReturnType<typeof kubeNamespaceLabels> | undefined;
  if (!policy && options.policyConfigMap) {
    const [namespace, name] = options.policyConfigMap.split('/');
    policySource = new PolicySource({
      read: kubePolicyReader(kc, namespace, name),
      configMap: options.policyConfigMap,
      logger,
    });
    await policySource.start();
    const watchedPolicy = policySource;
    policyWatch = kubePolicyConfigMapWatch(kc, namespace, name, () => void watchedPolicy.refresh(), logger);
    policyWatch.start();
    namespaceLabels = kubeNamespaceLabels(kc, { logger });
    namespaceLabels.start();
    policy = new ConfigMapPolicyChecker(policySource, namespaceLabels);
  }

  const adapters = deps.adapters ?? allAdapters;
  // every store watches the same cluster the same way: one informer factory, one history bound
  const watching = {
    adapters,
    informerFactory: kubeInformerFactory(kc),
    clusterResourceVersion: clusterResourceVersion(kc),
    historyMaxEvents: options.watchHistorySize,
    historyMaxAgeSeconds: options.watchHistorySeconds,
    staleAfterMs: deps.staleAfterMs,
    logger,
  };
  // every backup run of the operators that have backup objects, through the instances' machinery
  const backups = new BackupStore(watching);
  // every backup schedule this API serves, likewise
  const schedules = new ScheduleStore(watching);
  // an instance's status.backup shows its last and next runs: its served backups and schedules
  const instanceBackups = new InstanceBackupIndex({ backups, schedules });
  const store = new InformerInstanceStore({
    ...watching,
    engineConfig,
    backupsOf: (ns, name) => instanceBackups.of(ns, name),
    // the first list has the backup times every other replica serves; a backup kind this
    // apiserver cannot watch (its problems are reported) holds the instances back at most a while
    syncsAfter: Promise.race([
      Promise.all([backups.whenSynced(), schedules.whenSynced()]).then(() => undefined),
      new Promise<void>(resolve => setTimeout(resolve, BACKUPS_SYNC_WAIT_MS).unref()),
    ]),
  });
  instanceBackups.follow((ns, name, rv) => store.backupsChanged(ns, name, rv));
  store.start();
  backups.start();
  schedules.start();
  // operator objects and Secrets are written with the apiserver's own credentials
  const writer = new KubeApiWriter(kc, { timeoutMs: deps.writeTimeoutMs });
  // the last Ready spec, kept in the cluster so every replica tells a rollout from a fault alike
  const readySpecs = new ReadySpecRecorder({ store, writer, logger });
  void readySpecs.start();
  // a restore seen failing, kept where it survives the operator deleting what said so
  const failedRestores = new FailedRestoreRecorder({ store, writer, logger });
  void failedRestores.start();
  // the events of operator objects and their children, as the instances' own (kubectl describe)
  const events = new EventMirror({
    store,
    writer,
    logger,
    watchEvents: reader => new UncachedStream(kc, EVENTS, reader),
  });
  void events.start().catch(err => logger.warn('Mirroring events stopped', { error: String(err) }));
  // each instance's Service Binding Secret, from the operator's credentials (status.binding)
  const bindings = new BindingSecrets({
    store,
    writer,
    logger,
    // their metadata only: no Secret's values pass through for this
    watchSecrets: reader => new UncachedStream(kc, SECRETS, reader, { metadataOnly: true }),
  });
  void bindings.start().catch(err => logger.warn('Keeping binding Secrets stopped', { error: String(err) }));

  let shuttingDown = false;
  const app = createApp({
    store,
    backups,
    schedules,
    authenticator,
    authorizer,
    logger,
    bookmarkIntervalMs: deps.bookmarkIntervalMs,
    maxInFlight: { readOnly: options.maxRequestsInflight, mutating: options.maxMutatingRequestsInflight },
    writes: {
      writer,
      adapters,
      validation: validationContexts(engineConfig),
      policy,
    },
    readiness: () => {
      const authProblems = source?.problems() ?? [];
      // A bad policy keeps the last good one: reported here, but it does not make reads unready.
      const policyProblems = [...(policySource?.problems() ?? []), ...(namespaceLabels?.problems() ?? [])];
      const storeProblems = store.problems();
      const watches = store.watchHealth();
      const synced = store.hasSynced();
      const checks = [
        {
          name: 'authentication-config',
          ok: authProblems.length === 0,
          message: authProblems.join('; '),
        },
        {
          name: 'informer-sync',
          ok: synced,
          message: synced ? undefined : 'caches not synced yet',
        },
        {
          name: 'informers',
          ok: storeProblems.length === 0,
          message: storeProblems.join('; '),
          ...(watches.since !== undefined
            ? {
                reason: `${watches.failing} of ${watches.total} watches of the Kubernetes API failing since ${new Date(watches.since).toISOString()}; reads are answered from the cache${store.staleSince() === undefined ? '' : ', instances marked Stale'}`,
              }
            : {}),
        },
      ];
      const ready = !shuttingDown && checks.every(c => c.ok);
      checks.push({ name: 'policy', ok: true, message: policyProblems.join('; ') || undefined });
      // backups are served once their own caches have synced (503 before); a backup kind the
      // apiserver may not watch must not take the instances down with it
      const backupProblems = [
        ...backups.problems(),
        ...schedules.problems(),
        ...(backups.hasSynced() ? [] : ['backup caches not synced yet']),
        ...(schedules.hasSynced() ? [] : ['backup schedule caches not synced yet']),
      ];
      checks.push({ name: 'backup-informers', ok: true, message: backupProblems.join('; ') || undefined });
      return { ready, checks };
    },
  });

  const tlsCert = readFileSync(options.tlsCertFile!, 'utf8');
  const tlsKey = readFileSync(options.tlsKeyFile!, 'utf8');
  const server = await startServer({
    app,
    tls: { cert: tlsCert, key: tlsKey, clientCa: clientCaBundle(headerConfig.current()) },
    port: options.securePort,
    host: options.bindAddress,
    timeouts: {
      headersMs: options.readHeaderTimeoutSeconds * 1000,
      requestMs: options.readTimeoutSeconds * 1000,
      handshakeMs: options.tlsHandshakeTimeoutSeconds * 1000,
    },
  });
  // CA rotation: offer the new trust anchors without a restart (contract §12 #4).
  source?.onChange(config => {
    const ca = clientCaBundle(config);
    server.server.setSecureContext({ cert: tlsCert, key: tlsKey, ...(ca ? { ca } : {}) });
  });
  const heapSettler = startHeapSettler({ intervalSeconds: options.heapSettleIntervalSeconds, logger });
  logger.info('Serving', { port: server.port });

  return {
    port: server.port,
    server,
    app,
    store,
    backups,
    schedules,
    readySpecs,
    events,
    bindings,
    async shutdown(delayMs = 0, graceMs?: number) {
      shuttingDown = true;
      app.control.beginShutdown();
      const cut =
        graceMs === undefined
          ? undefined
          : setTimeout(() => {
              logger.warn('Shutdown grace period over, closing the connections still open', {
                graceMs,
                watches: app.control.activeWatches(),
              });
              server.closeAllConnections();
            }, graceMs);
      cut?.unref();
      if (delayMs > 0) await new Promise(r => setTimeout(r, delayMs));
      await server.close();
      clearTimeout(cut);
      heapSettler.stop();
      readySpecs.stop();
      failedRestores.stop();
      await events.stop();
      await bindings.stop();
      store.stop();
      instanceBackups.stop();
      backups.stop();
      schedules.stop();
      policySource?.stop();
      policyWatch?.stop();
      namespaceLabels?.stop();
      source?.stop();
    },
  };
}
