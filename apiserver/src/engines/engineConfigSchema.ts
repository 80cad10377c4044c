import { engineNames } from '../adapters/registry';

// Quantities may be written unquoted (`cpu: 2`), versions too by mistake (`11.4` is a YAML
// number): both are accepted here and their syntax checked after the schema.
const scalar = { type: ['string', 'number'] };
const resourceList = (required: string[]) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties: { cpu: scalar, memory: scalar },
});

const size = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'title', 'storage', 'resources'],
  properties: {
    name: { type: 'string' },
    title: { type: 'string', minLength: 1 },
    storage: {
      type: 'object',
      additionalProperties: false,
      required: ['size'],
      properties: { size: scalar },
    },
    resources: {
      type: 'object',
      additionalProperties: false,
      required: ['requests'],
      properties: {
        requests: resourceList(['cpu', 'memory']),
        limits: resourceList([]),
      },
    },
  },
};

const overrides = {
  type: 'object',
  additionalProperties: false,
  properties: {
    versions: { type: 'array', minItems: 1, items: scalar },
    sizes: { type: 'array', minItems: 1, items: size },
  },
};

/**
 * JSON schema of the `--engine-config` file (structure only; versions and quantities are
 * checked by `parseEngineConfig`). One key per engine and no others, so a misspelt engine is
 * an "unknown key" error. docs/engines.md documents it.
 */
export const ENGINE_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['engines'],
  properties: {
    engines: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        engineNames().map(e => [e, overrides]),
      ),
    },
  },
};
