import { readdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eventually } from '../support/eventually';
import type { Kubectl } from './Kubectl';
import { OPERATORS_DIR, readManifests } from './upstream';

/** What the suite added to the cluster, so that it can take exactly that away again. */
export interface PreparedCluster {
  namespace: string;
  /** CRDs that were absent and the suite created from the upstream files. */
  createdCrds: string[];
}

/** CRD files of the given operators: `[crd name, absolute file]`. */
function crdFiles(operatorDirs: string[]): Array<[string, string]> {
  return operatorDirs.flatMap(dir => {
    const crds = path.join(dir, 'crds');
    return readdirSync(path.join(OPERATORS_DIR, crds))
      .filter(f => f.endsWith('.yaml'))
      .map((f): [string, string] => [
        readManifests(path.join(crds, f))[0].metadata.name,
        path.join(OPERATORS_DIR, crds, f),
      ]);
  });
}

/**
 * Creates a fresh namespace and every operator CRD that is missing, then waits until the
 * apiserver reports each engine installed. `kubectl create`, not `apply`: several upstream
 * CRDs are larger than the last-applied annotation allows.
 */
export async function prepareCluster(
  kubectl: Kubectl,
  operatorDirs: string[],
  engines: string[],
): Promise<PreparedCluster> {
  const namespace = `dbaas-conformance-${randomBytes(3).toString('hex')}`;
  await kubectl.ok(['create', 'namespace', namespace]);
  const prepared: PreparedCluster = { namespace, createdCrds: [] };
  try {
    const present = new Set(
      (await kubectl.ok(['get', 'crd', '-o', 'name']))
        .split('\n')
        .map(l => l.replace(/^.*\//, '')),
    );
    for (const [name, file] of crdFiles(operatorDirs)) {
      if (present.has(name)) continue;
      await kubectl.ok(['create', '-f', file]);
      prepared.createdCrds.push(name);
    }
    await eventually(
      async () => {
        const list = await kubectl.json(['get', 'databaseengines']);
        const installed = new Set(
          list.items
            .filter((e: any) => e.status?.installed)
            .map((e: any) => e.metadata.name),
        );
        return engines.every(e => installed.has(e)) ? true : undefined;
      },
      `DatabaseEngines ${engines.join(', ')} installed`,
      60_000,
    );
  } catch (e) {
    // A half-prepared cluster is cleaned up here: the suite's afterAll only sees a finished one.
    await cleanUpCluster(kubectl, prepared);
    throw e;
  }
  return prepared;
}

/** Deletes the namespace (and with it every object the suite made) and the CRDs it created. */
export async function cleanUpCluster(
  kubectl: Kubectl,
  prepared: PreparedCluster,
): Promise<void> {
  await kubectl.run(
    [
      'delete',
      'namespace',
      prepared.namespace,
      '--wait=true',
      '--timeout=120s',
    ],
    undefined,
    150_000,
  );
  if (prepared.createdCrds.length > 0) {
    await kubectl.run(
      [
        'delete',
        'crd',
        ...prepared.createdCrds,
        '--wait=true',
        '--timeout=120s',
      ],
      undefined,
      150_000,
    );
  }
}
