import type {
  DatabaseInstance,
  DiagnosisFinding,
} from '@internal/plugin-databases-common';
import {
  asNumber,
  asRecord,
  asString,
  nameOf,
  namespaceOf,
  objectRefOf,
} from '../shared/read';
import type { KubeObject } from '../types';

interface Member {
  pod: string;
  /** seqno in grastate.dat (-1 after an unclean stop). */
  stateSeqno?: number;
  safeToBootstrap?: boolean;
  /** seqno recovered with `mariadbd --wsrep-recover`. */
  recoveredSeqno?: number;
}

function membersOf(recovery: Record<string, any>): Member[] {
  const state = asRecord(recovery.state) ?? {};
  const recovered = asRecord(recovery.recovered) ?? {};
  return [...new Set([...Object.keys(state), ...Object.keys(recovered)])]
    .sort()
    .map(pod => ({
      pod,
      stateSeqno: asNumber(asRecord(state[pod])?.seqno),
      safeToBootstrap: asRecord(state[pod])?.safeToBootstrap as
        boolean | undefined,
      recoveredSeqno: asNumber(asRecord(recovered[pod])?.seqno),
    }));
}

const SAFE = { true: '1', false: '0', undefined: '?' } as const;

const describeMember = (m: Member) =>
  `${m.pod}: seqno ${m.recoveredSeqno ?? m.stateSeqno ?? '?'}${
    m.recoveredSeqno !== undefined && m.stateSeqno !== undefined
      ? ` (grastate.dat ${m.stateSeqno})`
      : ''
  }, safe_to_bootstrap ${SAFE[String(m.safeToBootstrap) as keyof typeof SAFE]}`;

/**
 * Galera cluster recovery (status.galeraRecovery, mariadb-operator docs/galera.md): per member
 * the seqno from grastate.dat and from `--wsrep-recover`, safe_to_bootstrap, and which member
 * the operator bootstraps from. The hint is the manual procedure for a stuck recovery.
 */
export function mariadbFindings(
  source: KubeObject,
  _instance: DatabaseInstance,
): DiagnosisFinding[] {
  const status = asRecord(source.status) ?? {};
  const recovery = asRecord(status.galeraRecovery);
  if (!recovery) return [];
  const members = membersOf(recovery);
  const bootstrap = asRecord(recovery.bootstrap);
  const bootstrapPod = asString(bootstrap?.pod);
  const highest = members.reduce<Member | undefined>(
    (best, m) =>
      (m.recoveredSeqno ?? m.stateSeqno ?? -1) >
      (best?.recoveredSeqno ?? best?.stateSeqno ?? -1)
        ? m
        : best,
    undefined,
  );
  const name = nameOf(source);
  const ns = namespaceOf(source);
  return [
    {
      reason: 'GaleraRecoveryInProgress',
      severity: 'Warning',
      message: `Galera is recovering the cluster after it lost quorum. Members: ${
        members.map(describeMember).join('; ') || 'none reported yet'
      }. ${
        bootstrapPod
          ? `The operator bootstraps the cluster from ${bootstrapPod}${asString(bootstrap?.time) ? ` (since ${bootstrap!.time})` : ''}.`
          : `No member is bootstrapping yet${highest ? `; the one with the highest seqno is ${highest.pod}` : ''}.`
      }`,
      hint: `This usually settles by itself. If it is stuck (no bootstrap member after spec.galera.recovery.clusterBootstrapTimeout, or the bootstrap pod never gets ready), bootstrap by hand from the member with the highest seqno${
        highest ? ` (${highest.pod})` : ''
      }: kubectl patch mariadb -n ${ns} ${name} --type=merge -p '{"spec":{"galera":{"recovery":{"forceClusterBootstrapInPod":"${highest?.pod ?? '<pod>'}"}}}}', and unset it once the cluster is Ready. Any other member loses the transactions it lacks.`,
      objects: [
        objectRefOf(source),
        ...members.map(m => ({
          apiVersion: 'v1',
          kind: 'Pod',
          name: m.pod,
          namespace: ns,
        })),
      ],
    },
  ];
}
