import type {
  DatabaseEngineName,
  EngineSize,
  ResourceList,
} from '@internal/plugin-databases-common';
import Ajv from 'ajv';
import { parseDocument } from 'yaml';
import type { OperatorAdapter } from '../adapters/types';
import { describeAjvError } from '../policy/parsePolicy';
import type { RunnableVersions } from '../writes/EngineRules';
import {
  compareQuantities,
  parseQuantity,
  type Quantity,
} from '../writes/quantity';
import { compareVersions, parseVersion } from '../writes/version';
import type { EngineConfig, EngineOverrides } from './EngineConfig';
import { ENGINE_CONFIG_SCHEMA } from './engineConfigSchema';

/** A parsed engine config, or every problem found, each naming its key (`engines.mysql.versions[0]: ...`). */
export type EngineConfigParseResult =
  { config: EngineConfig } | { errors: string[] };

const validate = new Ajv({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
}).compile(ENGINE_CONFIG_SCHEMA);

const SIZE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The problem with one configured version, or undefined when the operator can run it. */
function versionProblem(
  value: string | number,
  runnable: RunnableVersions,
): string | undefined {
  if (typeof value === 'number')
    return `${value} is a YAML number; quote it ("${value}"), or 10.10 would read as 10.1`;
  const parts = parseVersion(value);
  if (!parts)
    return `${JSON.stringify(value)} is not a dotted version number such as "11.4"`;
  if (runnable.parts !== undefined && parts.length !== runnable.parts)
    return `${JSON.stringify(value)} must have ${runnable.parts} parts (${runnable.source})`;
  if (compareVersions(value, runnable.min) < 0)
    return `${JSON.stringify(value)} is older than ${runnable.min}, the oldest version the operator runs (${runnable.source})`;
  if (runnable.max !== undefined && compareVersions(value, runnable.max) > 0)
    return `${JSON.stringify(value)} is newer than ${runnable.max}, the newest version the operator runs (${runnable.source})`;
  return undefined;
}

function checkVersions(
  raw: Array<string | number>,
  runnable: RunnableVersions,
  at: string,
  errors: string[],
): string[] {
  const first = new Map<string, number>();
  raw.forEach((value, i) => {
    const problem = versionProblem(value, runnable);
    if (problem) errors.push(`${at}[${i}]: ${problem}`);
    const seen = first.get(String(value));
    if (seen !== undefined)
      errors.push(
        `${at}[${i}]: duplicate ${JSON.stringify(String(value))} (also ${at}[${seen}])`,
      );
    else first.set(String(value), i);
  });
  return raw.map(String);
}

/** A quantity as text, with an error when it is not one or is out of range. */
function quantity(
  value: string | number,
  at: string,
  positive: boolean,
  errors: string[],
): Quantity | undefined {
  const q = parseQuantity(value);
  if (!q)
    errors.push(
      `${at}: ${JSON.stringify(value)} is not a quantity (e.g. 500m, 2, 10Gi)`,
    );
  else if (positive ? q.nanos <= 0n : q.nanos < 0n)
    errors.push(
      `${at}: must be ${positive ? 'greater than zero' : 'zero or more'}`,
    );
  else return q;
  return undefined;
}

type RawList = { cpu?: string | number; memory?: string | number };
type RawSize = {
  name: string;
  title: string;
  storage: { size: string | number };
  resources: { requests: Required<RawList>; limits?: RawList };
};

function checkSizes(
  raw: RawSize[],
  at: string,
  errors: string[],
): EngineSize[] {
  const first = new Map<string, number>();
  return raw.map((s, i) => {
    const here = `${at}[${i}]`;
    if (!SIZE_NAME.test(s.name) || s.name.length > 63)
      errors.push(
        `${here}.name: ${JSON.stringify(s.name)} must be lower-case letters, digits and "-", starting and ending with a letter or digit`,
      );
    const seen = first.get(s.name);
    if (seen !== undefined)
      errors.push(
        `${here}.name: duplicate ${JSON.stringify(s.name)} (also ${at}[${seen}])`,
      );
    else first.set(s.name, i);
    quantity(s.storage.size, `${here}.storage.size`, true, errors);
    const requests: Partial<Record<keyof ResourceList, Quantity>> = {};
    for (const name of ['cpu', 'memory'] as const) {
      requests[name] = quantity(
        s.resources.requests[name],
        `${here}.resources.requests.${name}`,
        false,
        errors,
      );
      const given = s.resources.limits?.[name];
      if (given === undefined) continue;
      const limit = quantity(
        given,
        `${here}.resources.limits.${name}`,
        false,
        errors,
      );
      const request = requests[name];
      // apimachinery's ValidateResourceRequirements rule, so no preset is refused on create.
      if (request && limit && compareQuantities(request, limit) > 0)
        errors.push(
          `${here}.resources.requests.${name}: must be less than or equal to ${name} limit of ${limit.text}`,
        );
    }
    const limits = s.resources.limits;
    const text = (list: RawList) =>
      Object.fromEntries(Object.entries(list).map(([k, v]) => [k, String(v)]));
    return {
      name: s.name,
      title: s.title,
      storage: { size: String(s.storage.size) },
      resources: {
        requests: text(
          s.resources.requests,
        ) as EngineSize['resources']['requests'],
        ...(limits && { limits: text(limits) }),
      },
    };
  });
}

/**
 * Parses and validates the text of an `--engine-config` file (format: docs/engines.md).
 * Never throws: bad YAML, unknown keys or engines, wrong types, versions the operator cannot
 * run (per its adapter's `runnableVersions`), bad quantities and duplicates all come back as
 * errors naming the key. Only engines with an adapter in `adapters` may be configured.
 */
export function parseEngineConfig(
  text: string,
  adapters: readonly OperatorAdapter[],
): EngineConfigParseResult {
  const doc = parseDocument(text);
  if (doc.errors.length)
    return {
      errors: doc.errors.map(e => {
        const pos = e.linePos?.[0];
        // yaml's message repeats the position and quotes the source after its first line.
        const what = e.message
          .split('\n')[0]
          .replace(/ at line \d+, column \d+:?$/, '');
        return `invalid YAML${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}: ${what}`;
      }),
    };
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { errors: [`invalid YAML: ${(err as Error).message}`] };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { errors: ['must be a mapping with the key "engines"'] };
  if (!validate(raw))
    return {
      errors: [...new Set((validate.errors ?? []).map(describeAjvError))],
    };

  const errors: string[] = [];
  const engines: EngineConfig['engines'] = {};
  const entries = Object.entries(
    (
      raw as {
        engines: Record<
          string,
          { versions?: Array<string | number>; sizes?: RawSize[] }
        >;
      }
    ).engines,
  );
  for (const [engine, given] of entries) {
    const at = `engines.${engine}`;
    const rules = adapters.find(a => a.engine === engine)?.write?.rules;
    if (!rules) {
      errors.push(
        `${at}: this apiserver has no writable adapter for ${engine}`,
      );
      continue;
    }
    const overrides: EngineOverrides = {};
    if (given.versions)
      overrides.versions = checkVersions(
        given.versions,
        rules.runnableVersions,
        `${at}.versions`,
        errors,
      );
    if (given.sizes)
      overrides.sizes = checkSizes(given.sizes, `${at}.sizes`, errors);
    engines[engine as DatabaseEngineName] = overrides;
  }
  return errors.length ? { errors } : { config: { engines } };
}
