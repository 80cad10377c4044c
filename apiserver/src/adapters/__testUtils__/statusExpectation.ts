import type { DatabasePhase } from '@internal/plugin-databases-common';
import type { KubeObject, RelatedRef } from '../types';

/** What one upstream status sample must be served as (see statusFixtures.test.ts). */
export interface Expectation {
  phase: DatabasePhase;
  reason: string;
  /** Expected message, when the operator's own words must come through verbatim. */
  message?: string;
  /**
   * Status-only files (`*.status*.yaml`) hold just `status:`. They are wrapped in a minimal
   * object of the kind named here, whose spec uses only fields of the upstream CRD schema
   * (checked against it below) and values the file's own header states.
   */
  wrap?: { apiVersion: string; kind: string; spec: Record<string, unknown> };
  /** Related objects the cache would hold (apps/v1 StatefulSets for Redis). */
  related?: Array<{ ref: Omit<RelatedRef, 'namespace'>; object: KubeObject }>;
}

/** A file describing an object that is not a DatabaseInstance source: it must stay unclaimed. */
export interface NotASource {
  notASource: string;
  /** The kind the (status-only) file describes. */
  apiVersion: string;
  kind: string;
}

/**
 * A file of an operator whose adapter has not landed yet. It must stay unclaimed: the day an
 * adapter claims its kind, the row fails and has to become a real expectation.
 */
export interface AwaitingAdapter {
  awaitingAdapter: string;
  apiVersion: string;
  kind: string;
}

/**
 * An adapter folder's rows (`<folder>/__testUtils__/statusExpectations.ts`), keyed by
 * `<operator>/status/<file>`: every status sample in ../shared/operators/<operator>/status
 * must have one, so a new fixture cannot slip in unjudged.
 */
export type StatusExpectations = Record<
  string,
  Expectation | NotASource | AwaitingAdapter
>;

/** The apps/v1 StatefulSet type, for rows that give the cache's related objects. */
export const STATEFUL_SETS = {
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
};
