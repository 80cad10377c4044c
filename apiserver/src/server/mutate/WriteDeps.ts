import type { OperatorAdapter } from '../../adapters/types';
import type { Authorizer } from '../../auth/types';
import type { BackupStore } from '../../backups/BackupStore';
import type { InstanceStore } from '../../cache/types';
import type { KubeWriter } from '../../kube/KubeWriter';
import type { EngineValidationContexts } from '../../writes/validateSpec';
import type { Logger } from '../logger';
import type { KeyedMutex } from './KeyedMutex';
import type { PolicyChecker } from './PolicyChecker';

/** What the write handlers need besides the request. */
export interface WriteDeps {
  store: InstanceStore;
  writer: KubeWriter;
  adapters: readonly OperatorAdapter[];
  /** Per engine, what this cluster narrows (versions from `--engine-config`). */
  validation: EngineValidationContexts;
  policy: PolicyChecker;
  /** Per namespace/name serialisation of writes in this process. */
  locks: KeyedMutex;
  logger: Logger;
  /**
   * How long a write waits for the watch cache to show its effect before answering, so a
   * client's next read sees it (read-your-writes). The answer does not depend on it.
   */
  cacheWaitMs: number;
  /** Attempts of an update when kube-apiserver reports a change the client could not have seen. */
  updateAttempts: number;
  /**
   * Names created by this process that the watch cache may not show yet (`ns/name` →
   * `Kind.group "name"`), so a create of another engine under the same name is refused too.
   */
  recentCreates: Map<string, string>;
  /** Passwords for Secrets created before an operator object (crypto-random). */
  generatePassword: () => string;
  /** The backups a create may restore from (`spec.restoreFrom.backup`); without it none can be named. */
  backups?: BackupStore;
  /**
   * The apiserver's authorizer: a restore needs `get` on the backup besides `create` on
   * databaseinstances (asked as the user, through the same SubjectAccessReviews).
   */
  authorizer?: Authorizer;
}
