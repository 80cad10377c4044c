import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultOptions, type Options } from '@internal/databases-apiserver';
import { KubeEmulator } from '@internal/kube-emulator';
import { HttpsClient, type HttpsClientOptions } from '../client/HttpsClient';
import { ApiserverProcess } from './ApiserverProcess';
import { timeBundleStartup } from './BundledApiserver';

/** Who the timed reads are made as: a cluster-wide viewer (RBAC in the emulator's default.yaml). */
export const READER = { user: 'carol', groups: ['platform-viewers', 'group:default/platform', 'system:authenticated'] };
/** Who the timed writes are made as. */
export const WRITER = { user: 'admin', groups: ['system:masters', 'system:authenticated'] };

/**
 * The kube-emulator in this process (its store is populated directly; emulated operators off,
 * so objects keep their statuses) and the apiserver in a child process, wired as in a cluster:
 * the apiserver lists and watches the emulator with its service-account token and trusts the
 * emulator's front-proxy CA from `kube-system/extension-apiserver-authentication`.
 */
export class BenchCluster {
  private constructor(
    readonly emulator: KubeEmulator,
    readonly dir: string,
    private readonly apiserverBase: Options,
    private readonly clock: { backMs: number },
  ) {}

  /** Moves the emulator's clock `ms` into the past (0: the present), for the objects written next. */
  setClockBack(ms: number): void {
    this.clock.backMs = ms;
  }

  static async start(): Promise<BenchCluster> {
    const dir = await mkdtemp(path.join(tmpdir(), 'dbaas-bench-'));
    const clock = { backMs: 0 };
    const emulator = await KubeEmulator.start({ operators: false, now: () => new Date(Date.now() - clock.backMs) });
    const serving = await emulator.issueExtensionServingCert('api', 'dbaas-system');
    await writeFile(path.join(dir, 'tls.crt'), serving.certPem);
    await writeFile(path.join(dir, 'tls.key'), serving.keyPem);
    const kubeconfig = path.join(dir, 'apiserver.kubeconfig');
    await emulator.writeKubeconfig(kubeconfig, { token: 'dbaas-apiserver-token' });
    return new BenchCluster(
      emulator,
      dir,
      {
        ...defaultOptions(),
        securePort: 0,
        bindAddress: '127.0.0.1',
        kubeconfig,
        tlsCertFile: path.join(dir, 'tls.crt'),
        tlsKeyFile: path.join(dir, 'tls.key'),
      },
      clock,
    );
  }

  /** Starts an apiserver process against the emulator (not waiting for readiness). */
  startApiserver(opts: { cpuProfileDir?: string } = {}): Promise<ApiserverProcess> {
    return ApiserverProcess.start({
      options: this.apiserverBase,
      caPem: this.emulator.certs.clusterCa.certPem,
      cpuProfileDir: opts.cpuProfileDir,
    });
  }

  /**
   * How to reach the apiserver as the aggregation layer calls it: the front-proxy client
   * certificate and `X-Remote-User`/`X-Remote-Group` headers.
   */
  apiserverTarget(port: number, who: { user: string; groups: string[] } = READER): HttpsClientOptions {
    const { frontProxyClient, clusterCa } = this.emulator.certs;
    return {
      baseUrl: `https://127.0.0.1:${port}`,
      ca: clusterCa.certPem,
      cert: frontProxyClient.certPem,
      key: frontProxyClient.keyPem,
      headers: { 'X-Remote-User': who.user, 'X-Remote-Group': who.groups },
      // the aggregator offers h2 and keeps one pooled connection
      protocol: 'negotiate',
    };
  }

  /** How to reach the emulator (the baseline's kube-apiserver) with the admin client certificate. */
  emulatorTarget(): HttpsClientOptions {
    const { admin, clusterCa } = this.emulator.certs;
    // as kubectl connects: the emulator answers HTTP/1.1, a real kube-apiserver HTTP/2
    return { baseUrl: this.emulator.url, ca: clusterCa.certPem, cert: admin.certPem, key: admin.keyPem, protocol: 'negotiate' };
  }

  /** An in-process client of the apiserver, for untimed calls. */
  apiserverClient(port: number, who: { user: string; groups: string[] } = READER): HttpsClient {
    return new HttpsClient(this.apiserverTarget(port, who));
  }

  /** Spawn → `/readyz` 200 of the bundled apiserver (deploy/build-apiserver.sh) against this emulator. */
  timeBundleStartup(bundle: string): Promise<number> {
    return timeBundleStartup({
      bundle,
      kubeconfig: this.apiserverBase.kubeconfig!,
      tlsCertFile: this.apiserverBase.tlsCertFile!,
      tlsKeyFile: this.apiserverBase.tlsKeyFile!,
      caPem: this.emulator.certs.clusterCa.certPem,
    });
  }

  /** Registers the apiserver behind the emulator's aggregation layer (APIService + Service). */
  async registerApiserver(port: number): Promise<void> {
    await this.emulator.registerApiService({
      group: 'dbaas.platform.dev',
      version: 'v1alpha1',
      port,
      caPem: this.emulator.certs.clusterCa.certPem,
    });
  }

  async stop(): Promise<void> {
    await this.emulator.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
