import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type {
  DatabasePhase,
  InstanceHistoryResponse,
  PhaseTransition,
  RequestRecord,
} from '@internal/plugin-databases-common';

type InstanceKey = { cluster: string; namespace: string; name: string };

/**
 * Is resourceVersion `rv` no later than `stored`? One cluster's resourceVersions are decimal
 * integers that grow (comparable since Kubernetes 1.35, KEP-5504; the apiserver serves the
 * cluster's); anything else is not compared.
 */
function notAfter(rv: string | undefined, stored: string | null | undefined): boolean {
  const integer = /^[1-9]\d*$/;
  return !!rv && !!stored && integer.test(rv) && integer.test(stored) && BigInt(rv) <= BigInt(stored);
}

/**
 * The plugin's request history and phase timeline in its own database (sqlite in development,
 * PostgreSQL in production), so the UI's timeline survives restarts.
 */
export class HistoryStore {
  /** Serialises writes per instance so "last phase" checks do not race. */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly db: Knex) {}

  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const next = (this.chains.get(key) ?? Promise.resolve()).then(fn, fn);
    const settled = next.catch(() => undefined);
    this.chains.set(key, settled);
    void settled.then(() => {
      if (this.chains.get(key) === settled) this.chains.delete(key);
    });
    return next;
  }

  /** Records a request and its answer; returns the stored record. */
  async recordRequest(record: Omit<RequestRecord, 'id' | 'at'> & { at?: string }): Promise<RequestRecord> {
    const full: RequestRecord = { ...record, id: randomUUID(), at: record.at ?? new Date().toISOString() };
    await this.db('databases_requests').insert({
      id: full.id,
      cluster: full.cluster,
      namespace: full.namespace,
      name: full.name,
      action: full.action,
      actor: full.actor,
      request: JSON.stringify(full.request ?? null),
      status: full.outcome.status,
      message: full.outcome.message ?? null,
      at: full.at,
    });
    return full;
  }

  /**
   * Records `to` unless it is already the last phase recorded for the instance (a restart relists
   * everything). Replicas of the backend see the same events: a transition seen at a
   * resourceVersion is stored once, whichever replica records it first. Returns the transition
   * when this call stored it.
   */
  recordPhase(
    key: InstanceKey,
    to: DatabasePhase,
    details: { reason?: string; message?: string; at?: string; resourceVersion?: string } = {},
  ): Promise<PhaseTransition | undefined> {
    return this.serial(`${key.cluster}/${key.namespace}/${key.name}`, async () => {
      const last = await this.db('databases_transitions')
        .where(key)
        .orderBy('id', 'desc')
        .first('to_phase', 'resource_version');
      if (last?.to_phase === to) return undefined;
      // Another replica, further along the same watch, stored a later state: this one is behind
      // and will see that state itself (its phase here is no transition, only a stale view).
      if (notAfter(details.resourceVersion, last?.resource_version)) return undefined;
      const transition: PhaseTransition = {
        ...key,
        ...(last ? { from: last.to_phase as DatabasePhase } : {}),
        to,
        ...(details.reason ? { reason: details.reason } : {}),
        ...(details.message ? { message: details.message } : {}),
        at: details.at ?? new Date().toISOString(),
      };
      const inserted = await this.db('databases_transitions')
        .insert({
          ...key,
          from_phase: transition.from ?? null,
          to_phase: to,
          reason: transition.reason ?? null,
          message: transition.message ?? null,
          at: transition.at,
          resource_version: details.resourceVersion ?? null,
        })
        .onConflict(['cluster', 'namespace', 'name', 'resource_version'])
        .ignore()
        .returning('id');
      return inserted.length > 0 ? transition : undefined;
    });
  }

  /** The timeline of one instance, oldest first. */
  async history(key: InstanceKey): Promise<InstanceHistoryResponse> {
    const [transitions, requests] = await Promise.all([
      this.db('databases_transitions').where(key).orderBy('id', 'asc'),
      this.db('databases_requests').where(key).orderBy('at', 'asc'),
    ]);
    return {
      transitions: transitions.map(
        (t: any): PhaseTransition => ({
          cluster: t.cluster,
          namespace: t.namespace,
          name: t.name,
          ...(t.from_phase ? { from: t.from_phase } : {}),
          to: t.to_phase,
          ...(t.reason ? { reason: t.reason } : {}),
          ...(t.message ? { message: t.message } : {}),
          at: t.at,
        }),
      ),
      requests: requests.map(
        (r: any): RequestRecord => ({
          id: r.id,
          cluster: r.cluster,
          namespace: r.namespace,
          name: r.name,
          action: r.action,
          actor: r.actor,
          request: JSON.parse(r.request),
          outcome: { status: Number(r.status), ...(r.message ? { message: r.message } : {}) },
          at: r.at,
        }),
      ),
    };
  }
}
