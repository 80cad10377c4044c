import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AggregationLayer, authenticationConfigMapObject } from './aggregation';
import {
  DEFAULT_AUTH_CONFIG_PATH,
  EmulatorAuthenticator,
  HeaderImpersonator,
  RbacAuthorizer,
  createAuthHandlers,
  loadAuthConfig,
  type AuthConfig,
} from './auth';
import {
  createCertificates,
  issueServingCert,
  type EmulatorCertificateSet,
  type PemKeyPair,
} from './certs';
import { loadCompactCrds } from './crds';
import { applyRbacObjects } from './rbac/applyRbacObjects';
import { applyRbacObjectsAsNamespacesAppear } from './rbac/applyRbacObjectsAsNamespacesAppear';
import { authRulesToRbacObjects } from './rbac/authRulesToRbacObjects';
import { BACKSTAGE_CHART_DIR, EMULATOR_BACKSTAGE_INSTALL } from './rbac/backstageRbacChart';
import { bootstrapPolicy } from './rbac/bootstrapPolicy';
import { ClusterRoleAggregator } from './rbac/ClusterRoleAggregator';
import { RbacObjectIndex } from './rbac/RbacObjectIndex';
import { renderChartRbac, type ChartInstall } from './rbac/renderChartRbac';
import { kubeconfigYaml, type KubeconfigOptions } from './kubeconfig';
import { OperatorEmulator } from './operators';
import { seedDemo } from './seed';
import {
  createApiServer,
  type ApiServerFault,
  type ApiServerFaultOptions,
  type ApiServerHandle,
} from './server/createApiServer';
import { CRD_RESOURCE } from './store/builtinResources';
import { MemoryObjectStore } from './store/MemoryObjectStore';
import { renewControlPlaneLeases } from './store/controlPlaneLeases';
import type { ResourceKey } from './store/types';

const NAMESPACES: ResourceKey = { group: '', version: 'v1', plural: 'namespaces' };
/** As kube-controller-manager and kube-scheduler renew their leader leases. */
const DEFAULT_HEARTBEAT_MS = 2000;
const CONFIGMAPS: ResourceKey = { group: '', version: 'v1', plural: 'configmaps' };
const SERVICES: ResourceKey = { group: '', version: 'v1', plural: 'services' };
const APISERVICES: ResourceKey = { group: 'apiregistration.k8s.io', version: 'v1', plural: 'apiservices' };

/** Options of {@link KubeEmulator.start}. */
export interface KubeEmulatorOptions {
  /** HTTPS port on 127.0.0.1 (0 = any free port). */
  port?: number;
  host?: string;
  /** Users, tokens and the people's RBAC (default: the shipped rbac/default.yaml). */
  authConfigPath?: string;
  /**
   * The Helm chart whose RBAC (the apiserver's roles and bindings, the user roles) is rendered
   * with `helm template` and applied at start (default: deploy/helm/dbaas-apiserver installed as
   * EMULATOR_CHART_INSTALL). Start fails when helm cannot render it.
   */
  apiserverChart?: { dir?: string; install?: ChartInstall };
  /**
   * The Backstage backend's RBAC chart, rendered and applied the same way (default:
   * deploy/backstage installed as EMULATOR_BACKSTAGE_INSTALL, for the ServiceAccount
   * backstage/backend).
   */
  backstageChart?: { dir?: string; install?: ChartInstall };
  /** CRDs to register at start: our compact ones (default), or any CRD objects (tests pass upstream's). */
  crds?: Array<Record<string, unknown>>;
  /** Seed the demo teams and instances (default false). */
  seed?: boolean;
  /** Period of the emulated operators' reconcile loop (default 1500 ms). */
  operatorStepMs?: number;
  /** Run the emulated operators (default true). */
  operators?: boolean;
  bookmarkIntervalMs?: number;
  /** How often the aggregation layer re-probes APIServices (default 10 s). */
  aggregationResyncMs?: number;
  /**
   * Renew the control plane's leader Leases in kube-system this often (controlPlaneLeases.ts):
   * in a real cluster the resourceVersion never stands still for long, and watch bookmarks carry
   * it. Default 2 s, leader election's retry period; 0: a quiet cluster, whose RV moves only
   * with its clients' writes (no real cluster is one).
   */
  heartbeatMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /**
   * The cluster's clock: the store's timestamps (creation, status updates) and the emulated
   * operators' (their conditions, backup runs, when a CronJob fires). The benchmark backdates
   * objects with it; a test can set it near a minute so that a minutely schedule fires soon.
   */
  now?: () => Date;
}

/** An extension API server to register behind the aggregation layer. */
export interface ApiServiceRegistration {
  group: string;
  version: string;
  /** Where the extension listens on loopback. */
  port: number;
  /** PEM CA that signed the extension's serving certificate (goes to spec.caBundle). */
  caPem: string;
  namespace?: string;
  serviceName?: string;
  groupPriorityMinimum?: number;
  versionPriority?: number;
}

/**
 * An in-process Kubernetes API with emulated operators: what `npm start` runs when no cluster
 * is configured, and the double every test talks to. Only its HTTPS API is visible to the
 * apiserver and the plugins.
 */
export class KubeEmulator {
  private constructor(
    readonly url: string,
    readonly port: number,
    readonly certs: EmulatorCertificateSet,
    readonly store: MemoryObjectStore,
    readonly operators: OperatorEmulator,
    readonly aggregation: AggregationLayer,
    readonly authenticator: EmulatorAuthenticator,
    readonly authConfig: AuthConfig,
    private readonly server: ApiServerHandle,
    private readonly rbacControllers: Array<{ stop(): void }>,
    private readonly stopLeases?: () => void,
  ) {}

  static async start(options: KubeEmulatorOptions = {}): Promise<KubeEmulator> {
    const log = options.log ?? (() => {});
    const certs = await createCertificates();
    const authConfig = await loadAuthConfig(options.authConfigPath ?? DEFAULT_AUTH_CONFIG_PATH);
    const store = new MemoryObjectStore({
      now: options.now,
      onSubscriberError: err => log('Store subscriber failed', { error: String(err) }),
    });
    const authenticator = new EmulatorAuthenticator({ clientCaPem: certs.clientCa.certPem, config: authConfig });
    // Rendered before anything else is set up: a missing helm fails the start at once.
    const [chartRbac, backstageRbac] = await Promise.all([
      renderChartRbac(options.apiserverChart?.dir, options.apiserverChart?.install),
      renderChartRbac(
        options.backstageChart?.dir ?? BACKSTAGE_CHART_DIR,
        options.backstageChart?.install ?? EMULATOR_BACKSTAGE_INSTALL,
      ),
    ]);

    for (const ns of ['dbaas-system', 'backstage']) {
      store.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    }
    // RBAC as a cluster with both charts installed has it: Kubernetes' bootstrap roles, the
    // apiserver chart's objects, the Backstage backend's (deploy/backstage), then the auth file's
    // (the people's bindings; `rules:` shorthand only in tests' own auth files).
    applyRbacObjects(store, bootstrapPolicy());
    applyRbacObjects(store, chartRbac);
    applyRbacObjects(store, backstageRbac);
    applyRbacObjects(store, authRulesToRbacObjects(authConfig.rules));
    const onboarding = applyRbacObjectsAsNamespacesAppear(store, authConfig.rbac);
    const aggregator = new ClusterRoleAggregator(store, log);
    aggregator.start();
    const rbacIndex = RbacObjectIndex.watching(store);
    const authorizer = new RbacAuthorizer(rbacIndex);
    store.create(CONFIGMAPS, authenticationConfigMapObject(certs));
    for (const crd of options.crds ?? loadCompactCrds()) {
      store.create(CRD_RESOURCE, crd);
    }

    const aggregation = new AggregationLayer({
      store,
      frontProxyClient: certs.frontProxyClient,
      resyncIntervalMs: options.aggregationResyncMs ?? 10_000,
      log,
    });
    aggregation.start();

    const operators = new OperatorEmulator({
      store,
      stepMs: options.operatorStepMs ?? 1500,
      now: options.now,
      logger: { warn: (m, f) => log(m, f) },
    });
    if (options.operators !== false) operators.start();
    if (options.seed) seedDemo(store, { emulator: operators });

    const server = await createApiServer({
      store,
      tls: { key: certs.serving.keyPem, cert: certs.serving.certPem, ca: certs.clientCa.certPem },
      authenticator,
      impersonator: new HeaderImpersonator(authorizer),
      authorizer,
      customHandlers: createAuthHandlers(authenticator, authorizer),
      aggregation,
      port: options.port ?? 0,
      host: options.host ?? '127.0.0.1',
      bookmarkIntervalMs: options.bookmarkIntervalMs,
    });
    const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    const stopLeases = heartbeatMs > 0 ? renewControlPlaneLeases(store, heartbeatMs, options.now) : undefined;
    return new KubeEmulator(
      server.url,
      server.port,
      certs,
      store,
      operators,
      aggregation,
      authenticator,
      authConfig,
      server,
      [onboarding, aggregator, rbacIndex],
      stopLeases,
    );
  }

  /** A kubeconfig (YAML) for a user: the admin client certificate by default, or a bearer token. */
  kubeconfig(user: { token: string } | 'admin' = 'admin', extra: Partial<KubeconfigOptions> = {}): string {
    return kubeconfigYaml({
      server: this.url,
      caPem: this.certs.clusterCa.certPem,
      user: user === 'admin' ? { certPem: this.certs.admin.certPem, keyPem: this.certs.admin.keyPem } : user,
      ...extra,
    });
  }

  /** Writes a kubeconfig file (mode 0600). */
  async writeKubeconfig(file: string, user: { token: string } | 'admin' = 'admin', extra: Partial<KubeconfigOptions> = {}) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, this.kubeconfig(user, extra), { mode: 0o600 });
  }

  /** A serving certificate for an extension server, signed by the cluster CA, valid for its Service names. */
  issueExtensionServingCert(serviceName: string, namespace: string): Promise<PemKeyPair> {
    return issueServingCert(
      this.certs.clusterCa,
      [`${serviceName}.${namespace}.svc`, `${serviceName}.${namespace}.svc.cluster.local`, 'localhost'],
      ['127.0.0.1'],
    );
  }

  /**
   * Registers an extension server the way a cluster does: an ExternalName Service pointing at
   * loopback (the only routing that reaches a process outside the cluster, see the contract's
   * appendix) and an APIService with caBundle. Resolves once the APIService is Available
   * (or at once with `waitMs` 0: the availability controller keeps probing).
   */
  async registerApiService(reg: ApiServiceRegistration, waitMs = 30_000): Promise<void> {
    const namespace = reg.namespace ?? 'dbaas-system';
    const serviceName = reg.serviceName ?? 'api';
    const name = `${reg.version}.${reg.group}`;
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: serviceName, namespace },
      spec: { type: 'ExternalName', externalName: '127.0.0.1', ports: [{ name: 'https', port: reg.port, protocol: 'TCP' }] },
    };
    const apiService = {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name },
      spec: {
        group: reg.group,
        version: reg.version,
        groupPriorityMinimum: reg.groupPriorityMinimum ?? 1000,
        versionPriority: reg.versionPriority ?? 15,
        service: { namespace, name: serviceName, port: reg.port },
        caBundle: Buffer.from(reg.caPem).toString('base64'),
      },
    };
    upsert(this.store, SERVICES, namespace, service);
    upsert(this.store, APISERVICES, undefined, apiService);
    if (waitMs <= 0) return;
    const deadline = Date.now() + waitMs;
    for (;;) {
      await this.aggregation.checkAvailability(name);
      const obj = this.store.get(APISERVICES, undefined, name) as any;
      const available = obj?.status?.conditions?.find((c: any) => c.type === 'Available');
      if (available?.status === 'True') return;
      if (Date.now() > deadline) {
        throw new Error(`APIService ${name} not Available: ${available?.reason}: ${available?.message}`);
      }
      await new Promise(r => setTimeout(r, 200));
    }
  }

  /**
   * Fault injection (issue 8): `unavailable` answers 503 + Retry-After, `hang` never answers,
   * `slow` answers late; health probes are never affected. With `scope: 'storage'` only
   * requests served from the object store are affected (kube-apiserver without etcd), see
   * {@link ApiServerFaultOptions}.
   */
  setFault(mode: ApiServerFault, options?: ApiServerFaultOptions): void {
    this.server.setFault(mode, options);
  }

  /** The requests a `slow` fault holds back right now (method and URL). */
  delayedRequests(): Array<{ method: string; url: string }> {
    return this.server.delayedRequests();
  }

  /**
   * Fault injection: a watch expiry as after an etcd compaction. The history is dropped and
   * every open watch ends, so each client resumes from its last resourceVersion and gets
   * `410 Expired`, then has to re-list.
   */
  expireWatches(): void {
    this.store.compact();
    this.server.endWatches();
  }

  async stop(): Promise<void> {
    this.stopLeases?.();
    this.operators.stop();
    this.aggregation.stop();
    for (const c of this.rbacControllers) c.stop();
    await this.server.close();
  }
}

function upsert(store: MemoryObjectStore, key: ResourceKey, namespace: string | undefined, obj: any) {
  const existing = store.get(key, namespace, obj.metadata.name);
  if (existing) {
    store.update(key, { ...obj, metadata: { ...obj.metadata, resourceVersion: existing.metadata.resourceVersion } });
  } else {
    store.create(key, obj);
  }
}
