import { InputError } from '@backstage/errors';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import type { DatabasesService } from '@internal/plugin-databases-node';
import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { z } from 'zod/v3';
import { createInputSchema, instancePageUrl, parseInput } from './inputs';

/** What the create action needs: the databases backend's requests as a user. */
export interface DatabaseInstanceActionOptions {
  instances: DatabasesService;
}

/**
 * `databases:instance:create`: requests a DatabaseInstance as the user who runs the template,
 * through the same code as the portal's create (impersonation, `databases.instance.create`).
 * In the scaffolder's dry run the cluster validates and previews it without storing anything.
 */
export function createDatabaseInstanceAction(options: DatabaseInstanceActionOptions) {
  return createTemplateAction({
    id: 'databases:instance:create',
    description:
      'Requests a database (a DatabaseInstance) as the user running the template, with the portal\'s permissions. ' +
      'Outputs its name, its page in the portal and, where the operator has reported it, its connection Secret.',
    supportsDryRun: true,
    examples: [
      {
        description: 'A small PostgreSQL for a new component',
        example: [
          'steps:',
          '  - id: database',
          '    action: databases:instance:create',
          '    input:',
          '      cluster: local',
          '      namespace: team-a',
          '      name: ${{ parameters.name }}-db',
          '      engine: postgresql',
          '      size: small',
          '      owner: ${{ parameters.owner }}',
          '      component: component:default/${{ parameters.name }}',
        ].join('\n'),
      },
    ],
    schema: {
      input: createInputSchema,
      output: {
        name: zz => zz.string().describe('Name of the instance'),
        cluster: zz => zz.string(),
        namespace: zz => zz.string(),
        pageUrl: zz => zz.string().describe('The instance\'s page in the portal'),
        connectionSecretName: zz => zz.string().optional().describe('Secret holding the connection details, once the operator reports it'),
      },
    },
    async handler(ctx) {
      const input = parseInput(createInputSchema(z), ctx.input);
      const dryRun = ctx.isDryRun === true;
      const credentials = await ctx.getInitiatorCredentials();
      const spec: DatabaseInstanceSpec = { engine: input.engine };
      if (input.topology) spec.topology = input.topology;
      if (input.version) spec.version = input.version;
      if (input.size) {
        const sizes = await options.instances.engineSizes(credentials, input.cluster, input.engine);
        if (sizes === undefined) throw new InputError(`invalid input: engine: cluster ${input.cluster} offers no engine ${input.engine}`);
        const preset = sizes.find(s => s.name === input.size);
        if (!preset) {
          const offered = sizes.map(s => s.name).join(', ') || 'none';
          throw new InputError(`invalid input: size: ${input.engine} in ${input.cluster} has no size ${input.size} (offered: ${offered})`);
        }
        spec.storage = { size: preset.storage.size };
        spec.resources = preset.resources;
      }
      if (input.storage) spec.storage = { ...spec.storage, size: input.storage };

      const where = `${input.cluster}/${input.namespace}/${input.name}`;
      ctx.logger.info(`${dryRun ? 'Dry run: previewing' : 'Requesting'} ${input.engine} instance ${where} owned by ${input.owner}`);
      const create = async () => {
        const { instance } = await options.instances.createInstance(
          credentials,
          {
            cluster: input.cluster,
            namespace: input.namespace,
            name: input.name,
            owner: input.owner,
            entityRef: input.component,
            entityMayBeNew: true,
            spec,
          },
          dryRun,
        );
        return { phase: instance.status?.phase ?? null, secret: instance.status?.credentialsSecretRef?.name ?? null };
      };
      // A task resumed after a backend restart (the scaffolder's recovery) does not ask again
      // for what it created before, which would be a 409.
      const created = dryRun ? await create() : await ctx.checkpoint({ key: `databases.instance.create.${where}`, fn: create });
      const secret = created.secret ?? undefined;
      ctx.logger.info(
        dryRun
          ? `Dry run: the cluster accepted ${where}; nothing was created`
          : `Created ${where} (phase ${created.phase ?? 'not reported yet'})`,
      );
      ctx.output('name', input.name);
      ctx.output('cluster', input.cluster);
      ctx.output('namespace', input.namespace);
      ctx.output('pageUrl', instancePageUrl(input));
      if (secret) ctx.output('connectionSecretName', secret);
    },
  });
}
