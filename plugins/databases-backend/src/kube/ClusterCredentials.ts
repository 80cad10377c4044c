import type { ClusterConfig } from '../config/readDatabasesConfig';
import { KubeRequestError } from './KubeRequestError';
import { WatchedFile } from './WatchedFile';

/** What one request to a cluster is sent with. */
export interface CurrentCredentials {
  token?: string;
  /** PEM CA bundle, when one is configured. */
  ca?: string;
}

/**
 * The backend's credentials for one cluster, read as the request is made: a token from config,
 * or from a file (a rotating bound token, the pod's own service account), and the CA from config
 * or a file (the pod's CA bundle). Files are read again when they change, so a rotated token is
 * used from the next request on, without a restart, as Backstage's Kubernetes plugin reads the
 * service-account token file for every request.
 */
export class ClusterCredentials {
  private readonly tokenFile?: WatchedFile;
  private readonly caFile?: WatchedFile;
  /** The last good reads: a file briefly missing (mid-rewrite) does not fail requests. */
  private last: CurrentCredentials = {};

  constructor(private readonly cluster: ClusterConfig) {
    if (cluster.authProvider === 'serviceAccount' && cluster.serviceAccountTokenFile) {
      this.tokenFile = new WatchedFile(cluster.serviceAccountTokenFile);
    }
    if (cluster.caFile) this.caFile = new WatchedFile(cluster.caFile);
  }

  /** Whether anything is read from files (only then can {@link refresh} change anything). */
  get fromFiles(): boolean {
    return Boolean(this.tokenFile || this.caFile);
  }

  async current(force = false): Promise<CurrentCredentials> {
    let token: string | undefined;
    if (this.tokenFile) token = (await this.readOr(this.tokenFile, this.last.token, force))?.trim();
    else if (this.cluster.authProvider === 'serviceAccount') token = this.cluster.serviceAccountToken;
    const ca = this.caFile ? await this.readOr(this.caFile, this.last.ca, force) : this.cluster.caData;
    this.last = { token, ca };
    return this.last;
  }

  /** Reads the files again regardless of their stat (after a 401); true when the token changed. */
  async refresh(): Promise<boolean> {
    const before = this.last.token;
    return (await this.current(true)).token !== before;
  }

  private async readOr(file: WatchedFile, previous: string | undefined, force: boolean): Promise<string | undefined> {
    try {
      return await file.read(force);
    } catch (e) {
      if (previous !== undefined) return previous;
      throw new KubeRequestError(
        this.cluster.name,
        'UNKNOWN',
        `the backend's credentials for cluster ${this.cluster.name} cannot be read from ${file.path}: ${(e as Error).message}`,
      );
    }
  }
}
