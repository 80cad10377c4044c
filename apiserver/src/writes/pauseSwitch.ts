import type { KubeObject } from '../adapters/types';

/**
 * How an operator is told to pause one instance and to resume it: `spec.paused` as that
 * operator spells it. Operators without one have none, and a pause is refused for them.
 */
export interface PauseSwitch {
  /** Whether the operator object asks to be paused (what `spec.paused` projects). */
  isPaused(object: KubeObject): boolean;
  /** Sets or clears the pause on a copy of the operator object. */
  set(object: KubeObject, paused: boolean): void;
}

type MetadataMap = 'labels' | 'annotations';

/**
 * A pause written as a label or annotation `key: pausedValue`. Resuming removes it, and
 * the `alsoPausing` keys (other pauses the same operator honours, with the value that
 * pauses) are removed with it, so that a resumed instance is really resumed.
 */
export function markerPause(
  map: MetadataMap,
  key: string,
  pausedValue: string,
  alsoPausing: Readonly<Record<string, string>> = {},
): PauseSwitch {
  const pausing = { [key]: pausedValue, ...alsoPausing };
  return {
    isPaused: object =>
      Object.entries(pausing).some(
        ([k, v]) => object.metadata?.[map]?.[k] === v,
      ),
    set(object, paused) {
      const metadata = (object.metadata ??= {});
      const values: Record<string, string> = { ...metadata[map] };
      if (paused) values[key] = pausedValue;
      else for (const k of Object.keys(pausing)) delete values[k];
      if (Object.keys(values).length > 0) metadata[map] = values;
      else delete metadata[map];
    },
  };
}

/** A pause written as a boolean field of the operator's spec (`spec.<field>: true`). */
export function specFieldPause(field: string): PauseSwitch {
  return {
    isPaused: object =>
      (object.spec as Record<string, unknown> | undefined)?.[field] === true,
    set(object, paused) {
      const spec = (object.spec ??= {}) as Record<string, unknown>;
      if (paused) spec[field] = true;
      else delete spec[field];
    },
  };
}

/** `spec.paused` as projected: true when paused, absent otherwise (as deletionProtection). */
export const pausedOf = (
  pause: PauseSwitch | undefined,
  object: KubeObject,
): true | undefined => (pause?.isPaused(object) ? true : undefined);
