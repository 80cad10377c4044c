import { describe, expect, it } from '@jest/globals';
import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { databasesApiRef } from '../../api/types';
import { DatabasesApiError } from '../../api/DatabasesApiError';
import { FakeDatabasesApi, makeEngine, makeInstance, makeSchedule } from '../../testUtils/FakeDatabasesApi';
import { InstancePage } from './InstancePage';
import { scheduleChange } from './SchedulesCard';

const ref = { cluster: 'dev', namespace: 'team-a', name: 'orders-db' };
const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();

async function render(api: FakeDatabasesApi, allow: boolean, instanceRef = ref) {
  await renderInTestApp(<InstancePage instanceRef={instanceRef} />, {
    apis: [
      [databasesApiRef, api],
      mockApis.permission({ authorize: (allow ? 'ALLOW' : 'DENY') as any }),
    ],
  });
  await screen.findByTestId('phase-banner');
}

const ALL = { update: true, delete: true, readConnection: true, backUp: true, deleteBackups: true, createSchedule: true, updateSchedules: true, deleteSchedules: true };

describe('the Backup schedules card of the instance page', () => {
  it('lists the schedules with cron, status, last and next run and retention, and follows them live', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue({ ...makeInstance({ name: 'orders-db' }), actions: ALL });
    api.listSchedules.mockResolvedValue([
      makeSchedule({ name: 'orders-db-backups', instance: 'orders-db', cron: '30 2 * * *', retention: '7d', reason: 'LastRunSucceeded', lastScheduleTime: at(-7200), nextScheduleTime: at(5 * 3600 + 30) }),
    ]);
    await render(api, true);
    const table = await screen.findByRole('table', { name: 'Backup schedules' });
    const row = within(table).getByTestId('schedule-row');
    expect(row).toHaveTextContent(/orders-db-backups\s*30 2 \* \* \*\s*LastRunSucceeded\s*2h ago\s*in 5h\s*7d\s*Suspend/);
    act(() =>
      api.emitScheduleChange({
        type: 'MODIFIED',
        schedule: makeSchedule({ name: 'orders-db-backups', instance: 'orders-db', cron: '30 2 * * *', suspend: true, resourceVersion: '8' }),
      }),
    );
    await waitFor(() => expect(within(table).getByTestId('schedule-row')).toHaveTextContent(/Suspended\s*—\s*—\s*default\s*Resume/));
    expect(api.watchSchedules).toHaveBeenCalledTimes(1);
  });

  it('adds a schedule with retention, and shows the apiserver\'s refusal in the dialog with the form kept', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue({ ...makeInstance({ name: 'orders-db' }), actions: ALL });
    await render(api, true);
    expect(await screen.findByTestId('schedules-none')).toHaveTextContent('orders-db has no backup schedule');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add schedule' })).toBeEnabled());
    api.createSchedule.mockRejectedValueOnce(
      new DatabasesApiError({ message: 'spec.schedule: Invalid value: "61 * * * *": minute 61 is out of range 0-59', statusCode: 400, name: 'InputError' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Schedule (cron)'), { target: { value: '61 * * * *' } });
    fireEvent.change(within(dialog).getByLabelText('Retention'), { target: { value: '14d' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add schedule' }));
    expect(await within(dialog).findByText(/minute 61 is out of range/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Retention')).toHaveValue('14d');
    fireEvent.change(within(dialog).getByLabelText('Schedule (cron)'), { target: { value: '15 3 * * *' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add schedule' }));
    await waitFor(() => expect(api.createSchedule).toHaveBeenLastCalledWith(ref, { schedule: '15 3 * * *', retention: '14d' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('table', { name: 'Backup schedules' })).getByTestId('schedule-row')).toHaveTextContent(/orders-db-backups\s*15 3 \* \* \*/);
  });

  it('changes only what changed, with the version read; suspends in one click; deletes after saying the runs stay', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue({ ...makeInstance({ name: 'orders-db' }), actions: ALL });
    api.listSchedules.mockResolvedValue([makeSchedule({ name: 'orders-db-backups', instance: 'orders-db', cron: '0 2 * * *', retention: '7d', resourceVersion: '41' })]);
    await render(api, true);
    const change = await screen.findByRole('button', { name: 'Change schedule orders-db-backups' });
    await waitFor(() => expect(change).toBeEnabled());
    fireEvent.click(change);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Retention'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.updateSchedule).toHaveBeenCalledWith(ref, 'orders-db-backups', { retention: null, resourceVersion: '41' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Suspend orders-db-backups' }));
    await waitFor(() => expect(api.updateSchedule).toHaveBeenLastCalledWith(ref, 'orders-db-backups', { suspend: true, resourceVersion: '42' }));

    fireEvent.click(screen.getByRole('button', { name: 'Delete schedule orders-db-backups' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByTestId('schedule-delete-warning')).toHaveTextContent(/backups it already took are kept/);
    expect(api.deleteSchedule).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete schedule' }));
    await waitFor(() => expect(api.deleteSchedule).toHaveBeenCalledWith(ref, 'orders-db-backups'));
    expect(await screen.findByTestId('schedule-notice')).toHaveTextContent(/Deleted orders-db-backups\. .*already took are kept/);
    expect(await screen.findByTestId('schedules-none')).toBeInTheDocument();
  });

  it("offers nothing the cluster's RBAC would refuse: a dbaas-edit user sees the schedules but changes none", async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue({ ...makeInstance({ name: 'orders-db' }), actions: { ...ALL, createSchedule: false, updateSchedules: false, deleteSchedules: false } });
    api.listSchedules.mockResolvedValue([makeSchedule({ name: 'orders-db-backups', instance: 'orders-db' })]);
    await render(api, true);
    expect(await screen.findByRole('button', { name: 'Change schedule orders-db-backups' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete schedule orders-db-backups' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Suspend orders-db-backups' })).toBeDisabled();
    await waitFor(() => expect(screen.getByTestId('blocked-add-schedule')).toHaveAttribute('aria-label', 'You do not have permission to change the backup schedules of this database.'));
  });

  it("greys out Add schedule with the engine's reason where its operator keeps schedules elsewhere, and lists nothing", async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue({ ...makeInstance({ name: 'payments-db', engine: 'mysql' }), actions: ALL });
    const why = "mysql-operator keeps schedules inside the InnoDBCluster (spec.backupSchedules[]); edit the InnoDBCluster's spec.backupSchedules directly";
    api.listEngines.mockResolvedValue({
      cluster: 'dev',
      items: [makeEngine('mysql', true, { backup: { onDemand: true, schedule: false, restore: true, pointInTime: false, scheduleReason: why } })],
    });
    await render(api, true, { ...ref, name: 'payments-db' });
    await waitFor(() => expect(screen.getByTestId('schedule-blocker')).toHaveTextContent(why));
    expect(screen.getByRole('button', { name: 'Add schedule' })).toBeDisabled();
    await waitFor(() => expect(api.scheduleWatches.size).toBe(0));
    expect(screen.queryByTestId('schedules-none')).not.toBeInTheDocument();
  });

  it('has no card where the engine has no backups at all (the Backups card says why)', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-cache', engine: 'redis' }));
    await render(api, true, { ...ref, name: 'orders-cache' });
    await waitFor(() => expect(screen.getByTestId('backup-blocker')).toBeInTheDocument());
    expect(screen.queryByText('Backup schedules')).not.toBeInTheDocument();
  });
});

describe('scheduleChange', () => {
  const schedule = makeSchedule({ name: 's', instance: 'db', cron: '0 2 * * *', retention: '7d' });
  it('sends only what the form changed; an emptied retention is null (the operator default)', () => {
    expect(scheduleChange(schedule, { schedule: ' 0 2 * * * ', suspend: false, retention: '7d', method: '' })).toEqual({});
    expect(scheduleChange(schedule, { schedule: '0 3 * * *', suspend: true, retention: '', method: '' })).toEqual({ schedule: '0 3 * * *', suspend: true, retention: null });
  });
});
