import type {
  DatabaseEngineName,
  DatabaseTopology,
} from '@internal/plugin-databases-common';
import type { Quantity } from '../writes/quantity';
import type { VersionRange } from './versionRange';

/** One `matchExpressions` entry of a Kubernetes label selector. */
export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

/** A Kubernetes `metav1.LabelSelector`; all of its parts must hold (an empty selector matches all). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/**
 * The limits of one rule. Counts are plain numbers; amounts are parsed quantities (the text as
 * the platform team wrote it is kept for messages). Absent means "no limit on this".
 */
export interface PolicyLimits {
  /** Instances in the namespace. */
  instances?: number;
  /** Replicas summed over the namespace's instances (what ResourceQuota's `pods` would count). */
  replicas?: number;
  /** Replicas of any one instance. */
  replicasPerInstance?: number;
  /** CPU summed over the namespace: per-replica request (or limit when no request) × replicas. */
  cpu?: Quantity;
  /** Memory summed over the namespace, counted as `cpu` is. */
  memory?: Quantity;
  /** Storage summed over the namespace: `storage.size` × replicas. */
  storage?: Quantity;
}

/**
 * One rule of the policy. It applies to the namespaces it names (`namespaces`) or whose labels
 * match `namespaceSelector` (exactly one of the two is set). Every rule that applies to a
 * namespace must pass; absent fields allow everything.
 */
export interface PolicyRule {
  name: string;
  namespaces?: string[];
  namespaceSelector?: LabelSelector;
  /** Engines allowed; absent = all engines. */
  engines?: DatabaseEngineName[];
  /** Per engine, the topologies allowed; an engine not listed keeps all of its topologies. */
  topologies?: Partial<Record<DatabaseEngineName, DatabaseTopology[]>>;
  /** Per engine, the version range allowed; an engine not listed may run any version. */
  versions?: Partial<Record<DatabaseEngineName, VersionRange>>;
  max?: PolicyLimits;
}

/** The platform team's policy, as parsed from the ConfigMap. An empty rule list limits nothing. */
export interface Policy {
  rules: PolicyRule[];
}

/** The names of the limits, as they appear in `max` and in refusal messages. */
export type LimitName = keyof PolicyLimits;

/** One exceeded limit, formatted as ResourceQuota prints it. */
export interface ExceededLimit {
  limit: LimitName;
  /** What the request adds (for an update: the increase only). */
  requested: string;
  /** Current use in the namespace (for `replicasPerInstance`: the instance's current replicas). */
  used: string;
  limited: string;
}

/** What every refusal carries. */
interface ViolationBase {
  /** The rule that refused. */
  rule: string;
  /** The instance's name and namespace. */
  name: string;
  namespace: string;
  /** Why, in kube's words: what follows `... "name" is forbidden: `. */
  message: string;
}

/** Why a create or update is refused. */
export type PolicyViolation = ViolationBase &
  (
    | { kind: 'QuotaExceeded'; exceeded: ExceededLimit[] }
    | {
        /** The request leaves out an amount the rule limits (e.g. no CPU while `max.cpu` is set). */
        kind: 'MustSpecify';
        fields: string[];
      }
    | {
        kind: 'EngineNotAllowed' | 'TopologyNotAllowed' | 'VersionNotAllowed';
        engine: DatabaseEngineName;
        /** The refused value (engine, topology or version). */
        value: string;
        /** What the rule allows, formatted (`mariadb, mysql` or `>=10.11 <12`). */
        allowed: string;
      }
  );
