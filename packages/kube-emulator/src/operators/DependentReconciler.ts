import type { ObjectStore, StoredObject } from '../store/types';
import {
  deploymentObject,
  deploymentStatus,
  isOwnedBy,
  ownerReference,
  secretObject,
  serviceObject,
  statefulSetObject,
  statefulSetStatus,
} from './dependentObjects';
import { memberEvents } from './memberEvents';
import { claimObject, claimStatus, isReadyPod, podNames, podObject, podStatus } from './memberObjects';
import { CLAIMS, DEPLOYMENTS, PODS, SECRETS, SERVICES, STATEFULSETS, type StoreWrites } from './StoreWrites';
import type { DesiredState, MemberFault, StatefulSetState } from './types';

/** How an object's members show this round. */
export interface MemberShow {
  /** The object's fault (OperatorEmulator.setFault), shown by the members that are not ready. */
  fault?: MemberFault;
  /** When the members came up (the object's creation, as the emulator saw it). */
  since: string;
  /** A primary pod lost (failPrimary): not ready until the operator has failed over. */
  lost?: unknown;
  /** The fault is the operator's own doing (EmulatedOperator.heldBack): shown from a pod's start. */
  fromStart?: boolean;
}

/**
 * What an operator object owns, brought each round to its desired state: Secrets and Services
 * created once, StatefulSets and Deployments with their status, and each member's pod and data
 * claim as the StatefulSet controller, the scheduler and the kubelet would keep them.
 */
export class DependentReconciler {
  constructor(
    private readonly store: ObjectStore,
    private readonly writes: StoreWrites,
  ) {}

  reconcile(
    cr: StoredObject,
    desired: DesiredState,
    sets: Map<string, StatefulSetState>,
    podsBefore: Map<string, number>,
    members: MemberShow,
  ): number {
    const ns = cr.metadata.namespace;
    let changes = 0;
    if (this.store.resource(SECRETS)) {
      for (const s of desired.secrets) {
        if (!this.store.peek(SECRETS, ns, s.name)) {
          this.store.create(SECRETS, secretObject(cr, s));
          changes++;
        }
      }
    }
    if (this.store.resource(SERVICES)) {
      for (const s of desired.services) {
        if (!this.store.peek(SERVICES, ns, s.name)) {
          this.store.create(SERVICES, serviceObject(cr, s));
          changes++;
        }
      }
    }
    if (this.store.resource(STATEFULSETS)) {
      for (const d of desired.statefulSets) {
        if (d.podsOnly) continue;
        const body = statefulSetObject(cr, d);
        const { obj, changed } = this.writes.upsertSpec(STATEFULSETS, body);
        changes += changed;
        changes += this.writes.upsertStatus(
          STATEFULSETS,
          obj,
          statefulSetStatus(sets.get(d.name)!, obj.metadata.generation ?? 1),
        );
      }
    }
    changes += this.reconcileMembers(cr, desired, sets, podsBefore, members);
    if (this.store.resource(DEPLOYMENTS)) {
      for (const d of desired.deployments ?? []) {
        const { obj, changed } = this.writes.upsertSpec(
          DEPLOYMENTS,
          deploymentObject(cr, d),
        );
        changes += changed;
        changes += this.writes.upsertStatus(
          DEPLOYMENTS,
          obj,
          deploymentStatus(d.replicas, obj.metadata.generation ?? 1),
        );
      }
    }
    return changes;
  }

  /**
   * The pods and data claims of every set, as the StatefulSet controller, the scheduler and the
   * kubelet would keep them: one pod per member, ready in order, the others showing the
   * object's fault. A scale-down removes the pods and keeps their claims (the StatefulSet
   * default, `whenScaled: Retain`).
   */
  private reconcileMembers(
    cr: StoredObject,
    desired: DesiredState,
    sets: Map<string, StatefulSetState>,
    podsBefore: Map<string, number>,
    { fault, since, lost, fromStart }: MemberShow,
  ): number {
    if (!this.store.resource(PODS) || !this.store.resource(CLAIMS)) return 0;
    const ns = cr.metadata.namespace;
    let changes = 0;
    for (const d of desired.statefulSets) {
      const state = sets.get(d.name)!;
      const set = d.podsOnly
        ? undefined
        : this.store.peek(STATEFULSETS, ns, d.name);
      const owner = set
        ? { ...ownerReference(set), blockOwnerDeletion: true }
        : ownerReference(cr);
      const names = podNames(d, state.pods);
      for (const [i, pod] of names.entries())
        changes += this.reconcileMember(cr, d, pod, owner, {
          index: i,
          // a primary lost (failPrimary) is not ready until the operator has failed over
          ready: isReadyPod(state, i) && lost !== pod,
          // a pod the controller has just started is not failing yet
          fault: state.starting && i === state.pods - 1 && !fromStart ? undefined : fault,
          since,
        });
      // only the pods beyond the new count: listing the namespace per set is quadratic
      for (const pod of podNames(d, podsBefore.get(d.name) ?? 0).slice(
        names.length,
      )) {
        const gone = this.store.peek(PODS, ns, pod);
        if (!gone || !isOwnedBy(gone, String(owner.uid))) continue;
        this.store.delete(PODS, ns, pod);
        changes++;
      }
    }
    return changes;
  }

  /** One member's claim and pod, brought to what they show this round. */
  private reconcileMember(
    cr: StoredObject,
    d: DesiredState['statefulSets'][number],
    pod: string,
    owner: Record<string, unknown>,
    show: { index: number; ready: boolean; fault?: MemberFault; since: string },
  ): number {
    let changes = 0;
    const claim = claimObject(cr, d, pod, owner);
    if (claim) {
      const stored = this.writes.upsertSpec(CLAIMS, claim);
      changes += stored.changed;
      changes += this.writes.upsertStatus(
        CLAIMS,
        stored.obj,
        claimStatus(d, !show.ready && show.fault === 'volume-pending'),
      );
    }
    const stored = this.writes.upsertSpec(PODS, podObject(cr, d, pod, owner, show.index));
    changes += stored.changed;
    changes += this.writes.upsertStatus(
      PODS,
      stored.obj,
      podStatus(d, pod, show.ready, show.fault, show.since),
    );
    if (!show.ready && show.fault)
      changes += this.writes.recordEvents(
        memberEvents(
          d,
          { name: pod, namespace: cr.metadata.namespace ?? '', uid: stored.obj.metadata.uid },
          claim && { name: claim.metadata.name, uid: this.store.peek(CLAIMS, cr.metadata.namespace, claim.metadata.name)?.metadata.uid },
          show.fault,
        ),
        cr.metadata.namespace ?? '',
      );
    return changes;
  }
}
