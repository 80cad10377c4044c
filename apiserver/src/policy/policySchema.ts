import { engineNames, topologyNames } from '../adapters/registry';

const TOPOLOGIES = topologyNames();

const strings = { type: 'array', items: { type: 'string', minLength: 1 } };

/** One key per engine and no others, so a misspelt engine is an "unknown key" error. */
const perEngine = (value: object) => ({
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(engineNames().map(e => [e, value])),
});

const count = { type: 'integer', minimum: 0 };
// Quantities may be written unquoted (`cpu: 4`); their syntax is checked after the schema.
const amount = { type: ['string', 'number'] };

/**
 * JSON schema of `policy.yaml` (structure only; quantities, version ranges and the rules'
 * cross-field constraints are checked by `parsePolicy`). docs/policy.md documents it.
 */
export const POLICY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['rules'],
  properties: {
    rules: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1 },
          namespaces: { ...strings, minItems: 1 },
          namespaceSelector: {
            type: 'object',
            additionalProperties: false,
            properties: {
              matchLabels: {
                type: 'object',
                additionalProperties: { type: 'string' },
              },
              matchExpressions: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['key', 'operator'],
                  properties: {
                    key: { type: 'string', minLength: 1 },
                    operator: {
                      type: 'string',
                      enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'],
                    },
                    values: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
          engines: {
            type: 'array',
            items: { type: 'string', enum: engineNames() },
          },
          topologies: perEngine({
            type: 'array',
            items: { type: 'string', enum: TOPOLOGIES },
          }),
          versions: perEngine({ type: 'string' }),
          max: {
            type: 'object',
            additionalProperties: false,
            properties: {
              instances: count,
              replicas: count,
              replicasPerInstance: count,
              cpu: amount,
              memory: amount,
              storage: amount,
            },
          },
        },
      },
    },
  },
} as const;
