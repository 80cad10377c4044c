import type { DatabaseInstance } from '@internal/plugin-databases-common';

/** One change of one instance as the backend's watch saw it. */
export interface InstanceChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  cluster: string;
  instance: DatabaseInstance;
  /** The instance as it was before this change (absent for ADDED). */
  previous?: DatabaseInstance;
}

/** A cluster's watch went down or came back. */
export interface ClusterHealthChange {
  cluster: string;
  healthy: boolean;
  message?: string;
}

/** Receives what the shared watches see. */
export interface WatchListener {
  onInstance?(change: InstanceChange): void;
  onClusterHealth?(change: ClusterHealthChange): void;
}
