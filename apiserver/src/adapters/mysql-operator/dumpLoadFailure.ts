import type { PhaseFacts } from '../../status/facts';
import { crashedContainers } from '../shared/members';
import { asRecord, asString, nameOf, namespaceOf } from '../shared/read';
import type { KubeObject, RelatedLookup, ResourceType } from '../types';

/**
 * A cluster created from a dump whose load keeps failing is Failed, not Restoring forever.
 * mysql-operator loads `spec.initDB.dump` in the seed pod `<name>-0` (sidecar_main.py bootstrap →
 * populate_with_dump → initdb.load_dump) before it creates the InnoDB Cluster; when the load
 * raises, the sidecar logs "Error loading dump: …", exits 1 and is restarted to try again, and
 * nothing reaches the InnoDBCluster's status (it stays PENDING). So the verdict comes from the
 * seed pod: a container that ended with a non-zero exit while the dump is being loaded. The
 * operator's own words are only in that container's log; the message says where.
 */
export function dumpLoadFailure(source: KubeObject, facts: PhaseFacts, pods: ResourceType, related: RelatedLookup): void {
  if (facts.progress?.reason !== 'Restoring' || facts.onceReady || facts.error || facts.deleting) return;
  const dump = asString(asRecord(asRecord(asRecord(source.spec)?.initDB)?.dump)?.name);
  const namespace = namespaceOf(source);
  const seed = `${nameOf(source)}-0`;
  const crashed = crashedContainers(related.get({ type: pods, namespace, name: seed }));
  if (!crashed.length) return;
  const [first] = crashed;
  const { exitCode, reason } = first.lastState.terminated;
  const restarts = first.restartCount !== undefined ? `, restarted ${first.restartCount} times` : '';
  facts.error = {
    reason: 'RestoreFailed',
    message:
      `Loading dump ${dump ?? '(spec.initDB.dump)'} failed: container ${first.name} of the seed pod ${seed} exited with code ${exitCode}` +
      `${reason ? ` (${reason})` : ''}${restarts}. mysql-operator writes why only to that container's log: ` +
      `kubectl logs -n ${namespace} ${seed} -c ${first.name} --previous`,
  };
  delete facts.progress;
}
