import type {
  DatabaseEngineName,
  EngineSize,
} from '@internal/plugin-databases-common';

/** What the platform team changes about one engine; each key replaces the adapter's list. */
export interface EngineOverrides {
  /** Versions offered for new instances and upgrades, newest first. */
  versions?: string[];
  /** Size presets offered in the portal. */
  sizes?: EngineSize[];
}

/** The parsed `--engine-config` file (format: docs/engines.md). */
export interface EngineConfig {
  engines: Partial<Record<DatabaseEngineName, EngineOverrides>>;
}

/** No overrides: every engine offers what its adapter documents. */
export const NO_ENGINE_CONFIG: EngineConfig = { engines: {} };
