import { describe, expect, it } from '@jest/globals';
import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { databasesApiRef } from '../../api/types';
import { FakeDatabasesApi, makeBackup, makeEngine, makeInstance } from '../../testUtils/FakeDatabasesApi';
import { InstancePage } from './InstancePage';

const ref = { cluster: 'dev', namespace: 'team-a', name: 'orders-db' };
const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();

async function render(api: FakeDatabasesApi, allow: boolean, instanceRef = ref) {
  await renderInTestApp(<InstancePage instanceRef={instanceRef} />, {
    apis: [
      [databasesApiRef, api],
      mockApis.permission({ authorize: (allow ? 'ALLOW' : 'DENY') as any }),
    ],
  });
  await screen.findByTestId('phase-banner');
}

describe('the Backups card of the instance page', () => {
  it('lists the runs newest first with phase, start, duration, size and method, and follows them live', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    api.listBackups.mockResolvedValue({
      cluster: 'dev',
      items: [
        makeBackup({ name: 'orders-db-20261201020000', phase: 'Running', startTime: ago(30) }),
        makeBackup({ name: 'orders-db-nightly-check', phase: 'Succeeded', startTime: ago(7200), completionTime: ago(7200 - 192), size: '1.2 GiB', method: 'logical' }),
        makeBackup({ name: 'orders-db-before-migration', phase: 'Failed', startTime: ago(200_000), completionTime: ago(199_990) }),
      ],
    });
    await render(api, true);
    const table = await screen.findByRole('table', { name: 'Backups' });
    const rows = within(table).getAllByTestId('backup-row');
    expect(rows[0]).toHaveTextContent(/orders-db-20261201020000\s*Running\s*3\ds ago\s*3\ds/);
    expect(rows[1]).toHaveTextContent(/orders-db-nightly-check\s*Succeeded\s*2h ago\s*3m12s\s*1\.2 GiB\s*logical/);
    expect(rows[2]).toHaveTextContent(/Failed\s*2d ago\s*10s/);
    // what a reader asks first: the newest success and the newest failure (the running one is neither)
    expect(screen.getByTestId('backups-last')).toHaveTextContent(/^Last successful: 11\dm ago \(orders-db-nightly-check\) · last failed: 2d ago \(orders-db-before-migration\)$/);
    // the portal's colour language: the same tones as the instance phases
    expect(within(rows[1]).getByTestId('phase-chip')).toHaveAttribute('data-tone', 'ok');
    expect(within(rows[2]).getByTestId('phase-chip')).toHaveAttribute('data-tone', 'error');
    expect(within(rows[0]).getByTestId('phase-chip')).toHaveAttribute('data-tone', 'running');
    // the run finishes: the stream says so, nothing is asked again
    act(() =>
      api.emitBackupChange({
        type: 'MODIFIED',
        backup: makeBackup({ name: 'orders-db-20261201020000', phase: 'Succeeded', startTime: ago(30), completionTime: ago(1), size: '1.3 GiB', resourceVersion: '2' }),
      }),
    );
    await waitFor(() => expect(within(table).getAllByTestId('backup-row')[0]).toHaveTextContent(/Succeeded.*1\.3 GiB/));
    expect(screen.getByTestId('backups-last')).toHaveTextContent(/Last successful: \d+s ago \(orders-db-20261201020000\)/);
    expect(api.watchBackups).toHaveBeenCalledTimes(1);
    expect(api.listBackups).toHaveBeenCalledTimes(1);
  });

  it('backs up now and shows the new run at once', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    await render(api, true);
    expect(await screen.findByTestId('backups-none')).toHaveTextContent('No backups of orders-db yet.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Back up now' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    await waitFor(() => expect(api.createBackup).toHaveBeenCalledWith(ref, {}));
    const table = await screen.findByRole('table', { name: 'Backups' });
    expect(within(table).getByTestId('backup-row')).toHaveTextContent(/orders-db-20261201020000\s*Pending/);
  });

  it('offers only what the cluster\'s RBAC lets through too: a dbaas-edit user backs up but deletes no run', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue({
      ...makeInstance({ name: 'orders-db' }),
      actions: { update: true, delete: true, readConnection: false, backUp: true, deleteBackups: false, createSchedule: false, updateSchedules: false, deleteSchedules: false },
    });
    api.listBackups.mockResolvedValue({ cluster: 'dev', items: [makeBackup({ name: 'orders-db-nightly-check', phase: 'Succeeded', startTime: ago(7200) })] });
    // the portal's policy allows everything: the backend's answer for the cluster decides
    await render(api, true);
    const table = await screen.findByRole('table', { name: 'Backups' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Back up now' })).toBeEnabled());
    expect(within(table).getByRole('button', { name: 'Delete backup orders-db-nightly-check' })).toBeDisabled();
  });

  it('asks for the method where the engine offers several, the default first', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db', engine: 'postgresql' }));
    api.listEngines.mockResolvedValue({
      cluster: 'dev',
      items: [makeEngine('postgresql', true, { backup: { onDemand: true, schedule: true, restore: true, pointInTime: true, methods: ['barmanObjectStore', 'volumeSnapshot'] } })],
    });
    await render(api, true);
    await waitFor(() => expect(api.listEngines).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Back up now' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('barmanObjectStore')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back up' }));
    await waitFor(() => expect(api.createBackup).toHaveBeenCalledWith(ref, { method: 'barmanObjectStore' }));
  });

  it("disables Back up now with the engine's reason where its operator has no backups, and lists nothing", async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-cache', engine: 'redis' }));
    await render(api, true, { ...ref, name: 'orders-cache' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Back up now' })).toBeDisabled());
    expect(screen.getByTestId('blocked-back-up-now')).toHaveAttribute('aria-label', 'redis-operator has no backup or restore objects');
    expect(screen.getByTestId('backup-blocker')).toHaveTextContent('redis-operator has no backup or restore objects');
    // nothing to list: no stream stays open (one may have opened before the engine was known)
    await waitFor(() => expect(api.backupWatches.size).toBe(0));
    expect(screen.queryByTestId('backups-none')).not.toBeInTheDocument();
  });

  it('says the stored data is not deleted before deleting a run, then passes on the warning', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    api.listBackups.mockResolvedValue({
      cluster: 'dev',
      items: [makeBackup({ name: 'orders-db-nightly-check', phase: 'Succeeded', startTime: ago(7200), completionTime: ago(7000), location: 's3://backups/orders-db' })],
    });
    await render(api, true);
    const del = await screen.findByRole('button', { name: 'Delete backup orders-db-nightly-check' });
    await waitFor(() => expect(del).toBeEnabled());
    fireEvent.click(del);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('backup-delete-warning')).toHaveTextContent(
      /deletes the backup object \(Backup of mariadb-operator\) only\. The stored backup data is not deleted.*\(s3:\/\/backups\/orders-db\)/,
    );
    expect(api.deleteBackup).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete backup object' }));
    await waitFor(() => expect(api.deleteBackup).toHaveBeenCalledWith(ref, 'orders-db-nightly-check'));
    expect(await screen.findByTestId('backup-notice')).toHaveTextContent(/Deleted orders-db-nightly-check\. .*the backup data itself is not deleted/);
    expect(screen.queryByRole('table', { name: 'Backups' })).not.toBeInTheDocument();
  });

  it('disables both actions without the permissions, saying why', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'locked-db' }));
    api.listBackups.mockResolvedValue({ cluster: 'dev', items: [makeBackup({ name: 'locked-db-1', instance: 'locked-db', phase: 'Succeeded' })] });
    // its own resource ref: usePermission caches decisions per ref across renders
    await render(api, false, { ...ref, name: 'locked-db' });
    await waitFor(() => expect(screen.getByTestId('blocked-back-up-now')).toHaveAttribute('aria-label', 'You do not have permission to back up this database.'));
    expect(screen.getByRole('button', { name: 'Back up now' })).toBeDisabled();
    expect(await screen.findByRole('button', { name: 'Delete backup locked-db-1' })).toBeDisabled();
  });
});
