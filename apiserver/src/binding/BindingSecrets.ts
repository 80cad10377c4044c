import { ANNOTATION_BINDING_SOURCE, LABEL_BINDING, type DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import type { InstanceSource, InstanceStore } from '../cache/types';
import { SECRETS, type KubeWriter } from '../kube/KubeWriter';
import { toStatusError } from '../kube/toStatusError';
import type { StreamPhase, StreamReader } from '../kube/uncachedStream';
import { bindingEntries, bindingSecretName, desiredBindingSecret, isBindingSecretOf } from './bindingSecret';

const RETRY_MS = 5000;

/** Options of {@link BindingSecrets}. */
export interface BindingSecretsOptions {
  store: Pick<InstanceStore, 'watch' | 'list' | 'get' | 'source'> & { whenSynced(): Promise<void> };
  writer: Pick<KubeWriter, 'get' | 'create' | 'mergePatch'>;
  /**
   * Streams every Secret of the cluster, its metadata only, keeping nothing (UncachedStream): how
   * a rotation of an operator's Secret (its resourceVersion), or a binding Secret deleted by
   * hand, is noticed. Without it the binding Secrets are written as instances change only.
   */
  watchSecrets?: (reader: StreamReader) => { start(): Promise<void>; stop(): Promise<void> };
  logger?: { warn(msg: string, meta?: object): void };
  /** Writes at most this many at once (default 4): a first start writes every instance's. */
  maxInFlight?: number;
  /** Wait before retrying a write that failed otherwise than 404/409 (default 5 s). */
  retryMs?: number;
}

/** Where an instance's Secrets are: the operator's it is built from, and its binding Secret. */
interface Tracked {
  /** `namespace/name` of the operator's credentials Secret, when it has one. */
  secretKey?: string;
  /** `namespace/name` of the binding Secret. */
  bindingKey: string;
}

/**
 * Keeps, for every instance, its Service Binding Secret (servicebinding.io's Provisioned
 * Service): the `connection` subresource's values under the specification's entry names, in the
 * instance's namespace, owned by the operator object (deleted with it by the garbage collector).
 * It is rewritten when what it was built from changes: the operator's Secret (a rotation: its
 * resourceVersion), the operator object's spec (generation) or the endpoints. What it was built
 * from is recorded on it (an annotation), so a restarted replica writes only what is out of date.
 *
 * Two replicas may race: a create that finds the Secret made (409) and a patch guarded by the
 * resourceVersion it was decided on (409 when the other replica wrote first) look again, find
 * it as they want it and stop. A Secret of that name that is not the apiserver's is left alone.
 */
export class BindingSecrets {
  private subscription: { stop(): void } | undefined;
  private stream: { start(): Promise<void>; stop(): Promise<void> } | undefined;
  private readonly tracked = new Map<string, Tracked>();
  /** Instances per operator Secret (`namespace/name`), for its rotations. */
  private readonly bySecret = new Map<string, Set<string>>();
  /** Instance per binding Secret. */
  private readonly byBinding = new Map<string, string>();
  /** The referenced operator Secrets' resourceVersions, as the stream last showed them. */
  private readonly secretRvs = new Map<string, string>();
  /** The binding Secrets' source annotations, as the stream last showed them. */
  private readonly built = new Map<string, string>();
  private readonly queue = new Set<string>();
  private readonly inFlight = new Set<string>();
  /** Instances whose write ended in a 409 while it ran: looked at again. */
  private readonly again = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  /** Instances whose binding name a Secret not the apiserver's holds: said once, not each event. */
  private readonly foreign = new Set<string>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private streaming = false;
  private stopped = false;
  private disabled = false;

  constructor(private readonly options: BindingSecretsOptions) {}

  async start(): Promise<void> {
    const { store } = this.options;
    await store.whenSynced();
    if (this.stopped) return;
    this.subscription = store.watch(undefined, event => {
      if (event.type === 'DELETED') this.forget(event.object);
      else this.consider(event.object);
    });
    // the Secrets referenced are known before the first list of Secrets: it shows their RVs
    for (const instance of store.list()) this.track(instance);
    if (this.options.watchSecrets) {
      this.stream = this.options.watchSecrets({
        observe: (obj, phase) => this.observe(obj, phase),
        // a list shows what exists, not what went: what the last one showed is forgotten
        relisting: () => {
          this.streaming = false;
          this.secretRvs.clear();
          this.built.clear();
        },
        listed: () => {
          this.streaming = true;
          // a relist after an expired watch may have missed changes: decide again (no I/O when
          // nothing changed)
          for (const instance of store.list()) this.consider(instance);
        },
        error: err => this.options.logger?.warn('Watching Secrets for binding rotations failed; retrying', { error: String(err) }),
      });
      try {
        await this.stream.start();
      } catch (err) {
        this.options.logger?.warn('Cannot watch Secrets: binding Secrets follow instance changes only', { error: String(err) });
        for (const instance of store.list()) this.consider(instance);
      }
    } else {
      for (const instance of store.list()) this.consider(instance);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.subscription?.stop();
    this.retries.forEach(t => clearTimeout(t));
    this.retries.clear();
    await this.stream?.stop();
  }

  /** Resolves when nothing is queued or in flight (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private observe(secret: KubeObject, phase: StreamPhase): void {
    const key = `${secret.metadata?.namespace ?? ''}/${secret.metadata?.name ?? ''}`;
    if (secret.metadata?.labels?.[LABEL_BINDING] === 'true') {
      if (phase === 'DELETED') this.built.delete(key);
      else this.built.set(key, secret.metadata?.annotations?.[ANNOTATION_BINDING_SOURCE] ?? '');
      const owner = this.byBinding.get(key);
      if (owner && this.streaming) this.considerKey(owner);
      return;
    }
    const users = this.bySecret.get(key);
    if (!users) return;
    if (phase === 'DELETED') this.secretRvs.delete(key);
    else this.secretRvs.set(key, secret.metadata?.resourceVersion ?? '');
    if (this.streaming) for (const user of users) this.considerKey(user);
  }

  private considerKey(key: string): void {
    const [namespace, name] = key.split('/');
    const instance = this.options.store.get(namespace, name);
    if (instance) this.consider(instance);
  }

  /**
   * Indexes the instance's Secrets; returns its key, its source, and whether its Secrets are new
   * to the index (the operator's may have passed through the stream before anything used it).
   */
  private track(instance: DatabaseInstance): { key: string; source: InstanceSource; entry: Tracked; isNew: boolean } | undefined {
    const { namespace = '', name = '' } = instance.metadata;
    const key = `${namespace}/${name}`;
    const source = this.options.store.source(namespace, name);
    const write = source?.adapter.write;
    if (!source || !write) return undefined;
    const secretName = write.connectionSecretName(source.object);
    const entry: Tracked = {
      ...(secretName && { secretKey: `${namespace}/${secretName}` }),
      bindingKey: `${namespace}/${bindingSecretName(source.object.metadata?.name ?? name)}`,
    };
    const before = this.tracked.get(key);
    const isNew = before?.secretKey !== entry.secretKey || before?.bindingKey !== entry.bindingKey;
    if (isNew) {
      this.untrack(key);
      this.tracked.set(key, entry);
      if (entry.secretKey) {
        const users = this.bySecret.get(entry.secretKey) ?? new Set<string>();
        users.add(key);
        this.bySecret.set(entry.secretKey, users);
      }
      this.byBinding.set(entry.bindingKey, key);
    }
    return { key, source, entry, isNew };
  }

  private untrack(key: string): void {
    const entry = this.tracked.get(key);
    if (!entry) return;
    this.tracked.delete(key);
    if (entry.secretKey) {
      const users = this.bySecret.get(entry.secretKey);
      users?.delete(key);
      if (users?.size === 0) {
        this.bySecret.delete(entry.secretKey);
        this.secretRvs.delete(entry.secretKey);
      }
    }
    if (this.byBinding.get(entry.bindingKey) === key) this.byBinding.delete(entry.bindingKey);
  }

  private forget(instance: DatabaseInstance): void {
    // the garbage collector deletes its binding Secret (owner reference)
    const key = `${instance.metadata.namespace ?? ''}/${instance.metadata.name ?? ''}`;
    this.untrack(key);
    this.foreign.delete(key);
  }

  private consider(instance: DatabaseInstance): void {
    if (this.stopped || this.disabled) return;
    const found = this.track(instance);
    if (!found) return;
    const { key, source, entry, isNew } = found;
    // without the stream nothing tells what the Secrets hold: decided by reading them; nor for a
    // Secret the stream showed before anything used it (it is read once)
    if (this.streaming && !isNew) {
      if (entry.secretKey && !this.secretRvs.has(entry.secretKey)) return; // the operator has not made it yet
      const want = buildSignature(this.secretRvs.get(entry.secretKey ?? ''), source.object, instance);
      if (this.built.get(entry.bindingKey) === want) return;
    }
    this.queue.add(key);
    this.pump();
  }

  private pump(): void {
    const max = this.options.maxInFlight ?? 4;
    for (const key of this.queue) {
      if (this.inFlight.size >= max || this.stopped || this.disabled) return;
      if (this.inFlight.has(key)) {
        this.again.add(key);
        this.queue.delete(key);
        continue;
      }
      this.queue.delete(key);
      this.inFlight.add(key);
      const work = this.reconcile(key)
        .catch(err => this.failed(key, err))
        .finally(() => {
          this.inFlight.delete(key);
          this.pending.delete(work);
          if (this.again.delete(key)) this.considerKey(key);
          this.pump();
        });
      this.pending.add(work);
    }
  }

  /** Reads both Secrets and writes the binding Secret if it is not as it should be. */
  private async reconcile(key: string): Promise<void> {
    const { store, writer } = this.options;
    const [namespace, name] = key.split('/');
    const instance = store.get(namespace, name);
    const source = store.source(namespace, name);
    const write = source?.adapter.write;
    if (!instance || !source || !write) return;
    const secretName = write.connectionSecretName(source.object);
    const operatorSecret = secretName ? await writer.get(SECRETS, namespace, secretName) : undefined;
    if (secretName && !operatorSecret) return; // its ADDED comes through the stream
    const secretKey = `${namespace}/${secretName}`;
    if (secretName && this.bySecret.has(secretKey) && !this.secretRvs.has(secretKey)) {
      this.secretRvs.set(secretKey, operatorSecret?.metadata?.resourceVersion ?? '');
    }
    const details = write.connection(instance, source.object, operatorSecret);
    const entries = bindingEntries(source.adapter.engine, source.adapter.operator, details);
    const signature = buildSignature(operatorSecret?.metadata?.resourceVersion, source.object, instance);
    const desired = desiredBindingSecret(instance, source.object, entries, signature);
    const bindingName = desired.metadata!.name!;
    const existing = await writer.get(SECRETS, namespace, bindingName);
    if (!existing) {
      await writer.create(SECRETS, desired).catch(err => this.conflict(key, err));
      return;
    }
    if (!isBindingSecretOf(existing, source.object)) {
      if (!this.foreign.has(key)) {
        this.foreign.add(key);
        this.options.logger?.warn('A Secret of the binding name exists and is not the apiserver\'s: no binding for this instance', {
          namespace,
          name,
          secret: bindingName,
        });
      }
      return;
    }
    this.foreign.delete(key);
    if (sameContent(existing, desired)) return;
    const removed = Object.keys((existing.data as Record<string, string> | undefined) ?? {}).filter(k => !(k in (desired.data as object)));
    await writer
      .mergePatch(SECRETS, namespace, bindingName, {
        metadata: {
          resourceVersion: existing.metadata?.resourceVersion,
          annotations: desired.metadata!.annotations,
          labels: desired.metadata!.labels,
        },
        data: { ...(desired.data as object), ...Object.fromEntries(removed.map(k => [k, null])) },
      })
      .catch(err => this.conflict(key, err));
  }

  /** 409: the other replica wrote (or the Secret changed) since it was read: look again. */
  private conflict(key: string, err: unknown): void {
    if (toStatusError(err).code !== 409) throw err;
    this.again.add(key);
  }

  private failed(key: string, err: unknown): void {
    const status = toStatusError(err);
    if (status.code === 404) return; // the instance's namespace or object is gone
    // a namespace being deleted refuses creates with 403 too: that instance goes with it
    if (status.code === 403 && status.status.details?.causes?.some(c => c.reason === 'NamespaceTerminating')) return;
    const [namespace, name] = key.split('/');
    if (status.code === 403) {
      this.disabled = true;
      this.options.logger?.warn('Cannot write binding Secrets (forbidden): instances carry no status.binding', {
        namespace,
        name,
        error: status.message,
      });
      return;
    }
    this.options.logger?.warn('Writing the binding Secret failed; retrying', { namespace, name, error: status.message });
    const retry = setTimeout(() => {
      this.retries.delete(retry);
      this.considerKey(key);
    }, this.options.retryMs ?? RETRY_MS);
    retry.unref?.();
    this.retries.add(retry);
  }
}

/** What a binding Secret is built from (its annotation): see BindingSecrets. */
function buildSignature(secretRv: string | undefined, object: KubeObject, instance: DatabaseInstance): string {
  return JSON.stringify([secretRv ?? '', object.metadata?.generation ?? 0, instance.status?.endpoints ?? []]);
}

const sortedEntries = (data: unknown): string =>
  JSON.stringify(Object.entries((data as Record<string, string> | undefined) ?? {}).sort(([a], [b]) => a.localeCompare(b)));

function sameContent(existing: KubeObject, desired: KubeObject): boolean {
  return (
    sortedEntries(existing.data) === sortedEntries(desired.data) &&
    existing.metadata?.annotations?.[ANNOTATION_BINDING_SOURCE] === desired.metadata?.annotations?.[ANNOTATION_BINDING_SOURCE]
  );
}
