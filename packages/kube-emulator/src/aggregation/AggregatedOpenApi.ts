import type { BackendGetResult } from './backendGet';

type V3Paths = Record<string, { serverRelativeURL: string }>;
interface V2Part {
  paths: Record<string, unknown>;
  definitions: Record<string, unknown>;
}

/**
 * The OpenAPI that kube-apiserver's aggregator serves for the APIServices' extensions: each one's
 * `/openapi/v3` index entry for its group-version (merged into `/openapi/v3`), and its
 * `/openapi/v2` paths under `/apis/<group>/<version>/` with their definitions (merged into
 * `/openapi/v2`, what kubectl ≤1.27 explains with), downloaded as `system:aggregator`. Only
 * available APIServices contribute.
 */
export class AggregatedOpenApi {
  private readonly v3 = new Map<string, V3Paths>();
  private readonly v2 = new Map<string, V2Part>();

  constructor(private readonly log: (message: string, fields?: Record<string, unknown>) => void) {}

  /** Downloads the APIService's documents again (`download` GETs a path of its extension). */
  async refresh(name: string, gv: { group?: string; version?: string }, download: (path: string) => Promise<BackendGetResult>): Promise<void> {
    await Promise.all([this.refreshV3(name, gv, download), this.refreshV2(name, gv, download)]);
  }

  forget(name: string): void {
    this.v3.delete(name);
    this.v2.delete(name);
  }

  v3Paths(available: (name: string) => boolean): V3Paths {
    const out: V3Paths = {};
    for (const [name, paths] of this.v3) if (available(name)) Object.assign(out, paths);
    return out;
  }

  v2Spec(available: (name: string) => boolean): V2Part {
    const out: V2Part = { paths: {}, definitions: {} };
    for (const [name, spec] of this.v2) {
      if (available(name)) {
        Object.assign(out.paths, spec.paths);
        Object.assign(out.definitions, spec.definitions);
      }
    }
    return out;
  }

  private async refreshV2(name: string, gv: { group?: string; version?: string }, download: (path: string) => Promise<BackendGetResult>): Promise<void> {
    const result = await download('/openapi/v2');
    if (!result.ok || result.status !== 200) {
      this.v2.delete(name);
      return;
    }
    try {
      const doc = JSON.parse(result.body.toString('utf8')) as {
        paths?: Record<string, unknown>;
        definitions?: Record<string, unknown>;
      };
      const prefix = `/apis/${gv.group}/${gv.version}/`;
      const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([p]) => p.startsWith(prefix)));
      this.v2.set(name, { paths, definitions: doc.definitions ?? {} });
    } catch (e) {
      this.v2.delete(name);
      this.log('Invalid OpenAPI v2 document', { apiService: name, error: (e as Error).message });
    }
  }

  private async refreshV3(name: string, gv: { group?: string; version?: string }, download: (path: string) => Promise<BackendGetResult>): Promise<void> {
    const result = await download('/openapi/v3');
    if (!result.ok || result.status !== 200) {
      this.v3.delete(name);
      if (!result.ok || result.status !== 404) {
        this.log('Cannot download OpenAPI v3 index', { apiService: name, error: result.ok ? `status ${result.status}` : result.error });
      }
      return;
    }
    try {
      const index = JSON.parse(result.body.toString('utf8')) as {
        paths?: Record<string, { serverRelativeURL?: unknown }>;
      };
      const key = `apis/${gv.group}/${gv.version}`;
      const entry = index.paths?.[key];
      if (entry && typeof entry.serverRelativeURL === 'string') this.v3.set(name, { [key]: { serverRelativeURL: entry.serverRelativeURL } });
      else this.v3.delete(name);
    } catch (e) {
      this.v3.delete(name);
      this.log('Invalid OpenAPI v3 index', { apiService: name, error: (e as Error).message });
    }
  }
}
