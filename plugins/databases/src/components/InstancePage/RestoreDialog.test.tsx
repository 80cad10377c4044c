import { describe, expect, it } from '@jest/globals';
import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DatabasesApiError } from '../../api/DatabasesApiError';
import { databasesApiRef } from '../../api/types';
import { FakeDatabasesApi, makeBackup, makeEngine, makeInstance } from '../../testUtils/FakeDatabasesApi';
import { DatabasesPage } from '../DatabasesPage';

const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
const OWNER = 'group:default/team-a';

/** The databases page at the source's instance page, so a restore's navigation lands on a page too. */
async function renderAt(api: FakeDatabasesApi, name: string, allow = true) {
  await renderInTestApp(<DatabasesPage />, {
    apis: [
      [databasesApiRef, api],
      mockApis.permission({ authorize: (allow ? 'ALLOW' : 'DENY') as any }),
      mockApis.identity(),
    ],
    initialRouteEntries: [`/databases/dev/team-a/${name}`],
    mountPath: '/databases',
    // owners link to their catalog page
    mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
  });
  await screen.findByTestId('phase-banner');
}

/** getInstance answering per name: the source, and the new one once it was created. */
function withInstances(api: FakeDatabasesApi, ...items: ReturnType<typeof makeInstance>[]) {
  api.getInstance.mockImplementation(async (ref: any) => {
    const found = items.find(i => i.instance.metadata.name === ref.name);
    if (!found) throw new DatabasesApiError({ statusCode: 404, name: 'NotFoundError', message: `${ref.name} not found` });
    return found;
  });
}

describe('Restore into a new database (Backups card)', () => {
  it('offers it on Succeeded runs only, prefilled from the source; creates with restoreFrom the backup and lands on the new page, Restoring then Ready', async () => {
    const api = new FakeDatabasesApi();
    withInstances(
      api,
      // the version as the operator reports it; the engine lists 11.4
      makeInstance({ name: 'orders-db', owner: OWNER, version: '11.4.2' }),
      makeInstance({ name: 'orders-db-restored', owner: OWNER, phase: 'Provisioning', reason: 'Restoring', message: 'Restoring backup' }),
    );
    api.listBackups.mockResolvedValue({
      cluster: 'dev',
      items: [
        makeBackup({ name: 'orders-db-nightly-check', phase: 'Succeeded', startTime: ago(7200), completionTime: ago(7000) }),
        makeBackup({ name: 'orders-db-before-migration', phase: 'Failed', startTime: ago(9000), completionTime: ago(8990) }),
        makeBackup({ name: 'orders-db-now', phase: 'Running', startTime: ago(10) }),
      ],
    });
    await renderAt(api, 'orders-db');
    const table = await screen.findByRole('table', { name: 'Backups' });
    // a run that failed or is still running has nothing to restore from
    expect(within(table).getAllByRole('button', { name: /^Restore / })).toHaveLength(1);
    const button = within(table).getByRole('button', { name: 'Restore orders-db-nightly-check into a new database' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);

    const dialog = await screen.findByRole('dialog', { name: 'Restore into a new database' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('orders-db-restored');
    expect(within(dialog).getByRole('textbox', { name: 'Storage' })).toHaveValue('10Gi');
    expect(within(dialog).getByRole('textbox', { name: 'Engine' })).toHaveValue('mariadb');
    expect(within(dialog).getByRole('textbox', { name: 'Topology' })).toHaveValue('galera');
    expect(within(dialog).getByRole('textbox', { name: 'Version' })).toHaveValue('11.4');
    expect(within(dialog).getByRole('textbox', { name: 'Owner (team)' })).toHaveValue(OWNER);
    // mariadb-operator has no point in time (DatabaseEngine spec.backup.pointInTime false): no picker
    expect(within(dialog).queryByLabelText('Point in time (UTC)')).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('from backup orders-db-nightly-check of orders-db');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(api.createInstance).toHaveBeenCalledWith('dev', 'team-a', {
        name: 'orders-db-restored',
        owner: OWNER,
        spec: {
          engine: 'mariadb',
          version: '11.4',
          topology: 'galera',
          replicas: 3,
          storage: { size: '10Gi' },
          restoreFrom: { backup: 'orders-db-nightly-check' },
        },
      }),
    );
    // the new instance's page, live as any instance's
    await waitFor(() => expect(screen.getByTestId('phase-banner')).toHaveTextContent('Provisioning — Restoring'));
    expect(api.getInstance).toHaveBeenLastCalledWith(expect.objectContaining({ cluster: 'dev', namespace: 'team-a', name: 'orders-db-restored' }));
    const ready = makeInstance({ name: 'orders-db-restored', owner: OWNER, phase: 'Ready' });
    ready.instance.metadata.resourceVersion = '2';
    act(() => api.emit({ type: 'MODIFIED', cluster: 'dev', instance: ready.instance }));
    await waitFor(() => expect(screen.getByTestId('phase-banner')).toHaveTextContent(/^Ready/));
  });

  it('offers a point in time (UTC) where the engine has one: prefilled with the run\'s end, never in the future; or exactly the backup', async () => {
    const api = new FakeDatabasesApi();
    withInstances(api, makeInstance({ name: 'payments-pg', engine: 'postgresql', owner: OWNER }));
    api.listEngines.mockResolvedValue({
      cluster: 'dev',
      items: [makeEngine('postgresql', true, { backup: { onDemand: true, schedule: true, restore: true, pointInTime: true }, maxNameLength: 50 })],
    });
    const end = '2026-11-30T23:10:05Z';
    api.listBackups.mockResolvedValue({
      cluster: 'dev',
      items: [makeBackup({ name: 'payments-pg-nightly', instance: 'payments-pg', phase: 'Succeeded', startTime: '2026-11-30T23:09:00Z', completionTime: end })],
    });
    api.createInstance.mockRejectedValueOnce(
      new DatabasesApiError({
        statusCode: 400,
        name: 'InputError',
        message: 'local: DatabaseInstance.dbaas.platform.dev "payments-pg-restored" is invalid: spec.restoreFrom.instance: Invalid value: "payments-pg": has no backup destination',
      }),
    );
    await renderAt(api, 'payments-pg');
    const button = await screen.findByRole('button', { name: 'Restore payments-pg-nightly into a new database' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Restore into a new database' });
    const picker = within(dialog).getByLabelText('Point in time (UTC)') as HTMLInputElement;
    // jsdom writes the milliseconds a browser leaves out
    expect(picker.value).toMatch(/^2026-11-30T23:10:05(\.000)?$/);

    // the future is refused before anyone asks the cluster
    fireEvent.change(picker, { target: { value: '2999-01-01T00:00:00' } });
    expect(within(dialog).getByText('It is in the future: pick a time that has passed.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(api.createInstance).not.toHaveBeenCalled();

    fireEvent.change(picker, { target: { value: '2026-11-30T23:30' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(api.createInstance).toHaveBeenCalledWith(
        'dev',
        'team-a',
        expect.objectContaining({
          name: 'payments-pg-restored',
          spec: expect.objectContaining({ engine: 'postgresql', restoreFrom: { instance: 'payments-pg', pointInTime: '2026-11-30T23:30:00Z' } }),
        }),
      ),
    );
    // the apiserver's refusal, in its words, and the dialog stays
    expect(await within(dialog).findByTestId('error-explanation')).toHaveTextContent(/spec\.restoreFrom\.instance: Invalid value: "payments-pg": has no backup destination/);

    fireEvent.click(within(dialog).getByLabelText('Exactly backup payments-pg-nightly'));
    expect(within(dialog).queryByLabelText('Point in time (UTC)')).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(api.createInstance).toHaveBeenLastCalledWith('dev', 'team-a', expect.objectContaining({ spec: expect.objectContaining({ restoreFrom: { backup: 'payments-pg-nightly' } }) })),
    );
  });

  it("is disabled with the engine's reason where its DatabaseEngine says it cannot restore", async () => {
    const api = new FakeDatabasesApi();
    withInstances(api, makeInstance({ name: 'legacy-db', owner: OWNER }), makeInstance({ name: 'locked-db', owner: OWNER }));
    api.listEngines.mockResolvedValue({
      cluster: 'dev',
      items: [makeEngine('mariadb', true, { backup: { onDemand: true, schedule: false, restore: false, pointInTime: false, reason: 'this operator release cannot bootstrap from a backup' } })],
    });
    api.listBackups.mockImplementation(async (ref: any) => ({
      cluster: 'dev',
      items: [makeBackup({ name: `${ref.name}-1`, instance: ref.name, phase: 'Succeeded', startTime: ago(100), completionTime: ago(50) })],
    }));
    await renderAt(api, 'legacy-db');
    await waitFor(() => expect(api.listEngines).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByTestId('blocked-restore')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Restore legacy-db-1 into a new database' })).toBeDisabled();
    fireEvent.mouseOver(screen.getByTestId('blocked-restore'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('this operator release cannot bootstrap from a backup');
  });

  it('is disabled, saying why, for a user who may not create databases', async () => {
    const api = new FakeDatabasesApi();
    withInstances(api, makeInstance({ name: 'locked-db', owner: OWNER }));
    api.listBackups.mockResolvedValue({ cluster: 'dev', items: [makeBackup({ name: 'locked-db-1', instance: 'locked-db', phase: 'Succeeded' })] });
    await renderAt(api, 'locked-db', false);
    const button = await screen.findByRole('button', { name: 'Restore locked-db-1 into a new database' });
    await waitFor(() => expect(button).toBeDisabled());
    fireEvent.mouseOver(screen.getByTestId('blocked-restore'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('You do not have permission to create databases like this one.');
  });
});
