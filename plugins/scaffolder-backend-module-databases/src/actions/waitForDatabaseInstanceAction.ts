import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { z } from 'zod/v3';
import type { DatabaseInstanceActionOptions } from './createDatabaseInstanceAction';
import { instancePageUrl, parseInput, waitInputSchema } from './inputs';

/**
 * `databases:instance:wait`: waits until an instance is Ready, logging each phase it passes
 * to the task log, and fails with the instance's reason when it fails, is deleted or is not
 * Ready in time. Changes come from the databases backend's watch of the cluster.
 */
export function waitForDatabaseInstanceAction(options: DatabaseInstanceActionOptions) {
  return createTemplateAction({
    id: 'databases:instance:wait',
    description:
      'Waits until a DatabaseInstance is Ready (read as the user running the template); fails with the instance\'s reason, or after timeoutSeconds.',
    supportsDryRun: true,
    examples: [
      {
        description: 'Wait for the database created by an earlier step, at most 10 minutes',
        example: [
          'steps:',
          '  - id: ready',
          '    action: databases:instance:wait',
          '    input:',
          '      cluster: ${{ steps.database.output.cluster }}',
          '      namespace: ${{ steps.database.output.namespace }}',
          '      name: ${{ steps.database.output.name }}',
          '      timeoutSeconds: 600',
        ].join('\n'),
      },
    ],
    schema: {
      input: waitInputSchema,
      output: {
        phase: zz => zz.string().describe('The phase waited for: Ready'),
        pageUrl: zz => zz.string().describe('The instance\'s page in the portal'),
        connectionSecretName: zz => zz.string().optional().describe('Secret holding the connection details, if the operator reports one'),
      },
    },
    async handler(ctx) {
      const input = parseInput(waitInputSchema(z), ctx.input);
      const where = `${input.cluster}/${input.namespace}/${input.name}`;
      ctx.output('pageUrl', instancePageUrl(input));
      if (ctx.isDryRun) {
        // a dry run created nothing to wait for
        ctx.logger.info(`Dry run: would wait up to ${input.timeoutSeconds} s for ${where} to be Ready`);
        ctx.output('phase', 'Ready');
        return;
      }
      ctx.logger.info(`Waiting up to ${input.timeoutSeconds} s for ${where} to be Ready`);
      const ready = await options.instances.waitUntilReady(
        await ctx.getInitiatorCredentials(),
        input,
        {
          timeoutMs: input.timeoutSeconds * 1000,
          signal: ctx.signal,
          onProgress: instance => ctx.logger.info(`${input.name}: ${describe(instance)}`),
        },
      );
      ctx.logger.info(`${where} is Ready`);
      ctx.output('phase', 'Ready');
      const secret = ready.status?.credentialsSecretRef?.name;
      if (secret) ctx.output('connectionSecretName', secret);
    },
  });
}

function describe(instance: DatabaseInstance): string {
  const s = instance.status;
  if (!s?.phase) return 'no phase reported yet';
  return [s.phase, s.reason, s.message].filter(Boolean).join(': ');
}
