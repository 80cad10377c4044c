import { describe, expect, it } from '@jest/globals';
import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { databasesApiRef } from '../../api/types';
import { FakeDatabasesApi, makeInstance } from '../../testUtils/FakeDatabasesApi';
import { InstancePage } from './InstancePage';

const ref = { cluster: 'dev', namespace: 'team-a', name: 'orders-db' };

async function render(api: FakeDatabasesApi, allow: boolean, instanceRef = ref) {
  await renderInTestApp(<InstancePage instanceRef={instanceRef} />, {
    apis: [
      [databasesApiRef, api],
      mockApis.permission({ authorize: (allow ? 'ALLOW' : 'DENY') as any }),
    ],
  });
  await screen.findByTestId('phase-banner');
}

describe('InstancePage', () => {
  it("shows the phase, reason and the operator's message, endpoints and the raw status", async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(
      makeInstance({ name: 'orders-db', phase: 'Degraded', reason: 'ReplicasNotReady', message: 'Galera cluster has 2/3 nodes synced', ready: 2 }),
    );
    await render(api, true);
    const banner = screen.getByTestId('phase-banner');
    expect(banner).toHaveTextContent('Degraded — ReplicasNotReady');
    expect(banner).toHaveTextContent('Galera cluster has 2/3 nodes synced');
    expect(screen.getByText('orders-db-primary.team-a.svc')).toBeInTheDocument();
    expect(screen.getByText('2/3')).toBeInTheDocument();
    expect(screen.getByText(/Raw operator status \(MariaDB\)/)).toBeInTheDocument();
  });

  it('says what is wrong with an instance that is not Ready, and asks again when it changes', async () => {
    const api = new FakeDatabasesApi();
    const degraded = makeInstance({ name: 'orders-db', phase: 'Degraded', reason: 'GaleraRecovering', ready: 2 });
    api.getInstance.mockResolvedValue(degraded);
    api.getDiagnosis.mockResolvedValueOnce({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstanceDiagnosis',
      metadata: { name: 'orders-db', namespace: 'team-a' },
      phase: 'Degraded',
      findings: [
        {
          reason: 'CrashLoopBackOff',
          severity: 'Error',
          message: 'Pod orders-db-2: container mariadb keeps crashing (5 restarts)',
          hint: 'Read its last log: kubectl logs -n team-a orders-db-2 -c mariadb --previous',
          objects: [{ apiVersion: 'v1', kind: 'Pod', name: 'orders-db-2', namespace: 'team-a' }],
        },
      ],
    });
    await render(api, true);
    const finding = await screen.findByTestId('diagnosis-finding');
    expect(finding).toHaveTextContent('CrashLoopBackOff');
    expect(finding).toHaveTextContent('keeps crashing (5 restarts)');
    expect(finding).toHaveTextContent('What to do: Read its last log');
    expect(finding).toHaveTextContent('Pod/orders-db-2');
    expect(api.getDiagnosis).toHaveBeenCalledWith(ref);
    // the instance changes: the panel asks again (the fake now answers no findings)
    const next = makeInstance({ name: 'orders-db', phase: 'Degraded', reason: 'ReplicasNotReady', ready: 2 });
    next.instance.metadata.resourceVersion = '999';
    act(() => api.emit({ type: 'MODIFIED', cluster: 'dev', instance: next.instance }));
    await screen.findByTestId('diagnosis-none');
    expect(api.getDiagnosis).toHaveBeenCalledTimes(2);
  });

  it('shows no diagnosis panel on a Ready instance', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db', phase: 'Ready' }));
    await render(api, true);
    expect(screen.queryByText('What is wrong')).not.toBeInTheDocument();
    expect(api.getDiagnosis).not.toHaveBeenCalled();
  });

  it("lists the instance's Kubernetes events, newest last, naming the object, and follows them live", async () => {
    const api = new FakeDatabasesApi();
    const current = makeInstance({ name: 'orders-db', phase: 'Degraded' });
    api.getInstance.mockResolvedValue(current);
    api.getInstanceEvents.mockResolvedValue({
      items: [
        { type: 'Normal', reason: 'Updated', message: 'MariaDB updated', count: 1, lastTimestamp: new Date(Date.now() - 120_000).toISOString(), from: 'mariadb-operator' },
        {
          type: 'Warning',
          reason: 'BackOff',
          message: 'Back-off restarting failed container mariadb',
          count: 4,
          firstTimestamp: new Date(Date.now() - 600_000).toISOString(),
          lastTimestamp: new Date(Date.now() - 5_000).toISOString(),
          from: 'kubelet',
          about: 'Pod orders-db-2',
        },
      ],
    });
    await render(api, true);
    const table = await screen.findByRole('table', { name: 'Events' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('the operator object');
    expect(rows[2]).toHaveTextContent(/Warning\s*BackOff.*×4.*kubelet\s*Pod orders-db-2\s*Back-off restarting failed container mariadb/);
    // a new event arrives through the watch; the instance itself did not change
    act(() =>
      api.emitKubeEvent({
        type: 'ADDED',
        item: { name: 'orders-db.f00', type: 'Warning', reason: 'FailedScheduling', message: '0/3 nodes are available', count: 1, lastTimestamp: new Date().toISOString(), from: 'default-scheduler', about: 'Pod orders-db-3' },
      }),
    );
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(within(table).getAllByRole('row')[3]).toHaveTextContent(/FailedScheduling.*default-scheduler\s*Pod orders-db-3\s*0\/3 nodes are available/);
    expect(api.watchInstanceEvents).toHaveBeenCalledTimes(1);
  });

  it('says so when an instance has no events', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    await render(api, true);
    expect(await screen.findByTestId('events-none')).toHaveTextContent('No events');
  });

  it('builds the timeline from history and appends live transitions', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db', phase: 'Provisioning' }));
    api.getHistory.mockResolvedValue({
      transitions: [{ ...ref, to: 'Pending', reason: 'Accepted', at: '2026-11-29T10:00:00Z' }],
      requests: [],
    });
    await render(api, true);
    await waitFor(() => expect(screen.getAllByTestId('timeline-entry')).toHaveLength(1));
    expect(screen.getByLabelText('Work in progress')).toBeInTheDocument();
    const ready = makeInstance({ name: 'orders-db', phase: 'Ready' });
    act(() =>
      api.emit({
        type: 'MODIFIED',
        cluster: 'dev',
        instance: ready.instance,
        transition: { ...ref, from: 'Provisioning', to: 'Ready', reason: 'AllReplicasReady', at: '2026-11-29T10:01:00Z' },
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('timeline-entry')).toHaveLength(2));
    // newest first
    expect(screen.getAllByTestId('timeline-entry')[0]).toHaveTextContent('AllReplicasReady');
    expect(screen.getByTestId('phase-banner')).toHaveTextContent('Ready');
    expect(screen.queryByLabelText('Work in progress')).not.toBeInTheDocument();
  });

  it('disables the actions and hides credentials when permission is denied, saying why', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'secret-db' }));
    // its own resource ref: usePermission caches decisions per ref across renders
    await render(api, false, { ...ref, name: 'secret-db' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Scale' })).toBeDisabled());
    for (const label of ['Scale', 'Upgrade', 'Delete']) {
      expect(screen.getByRole('button', { name: label })).toBeDisabled();
    }
    expect(screen.getByTestId('blocked-delete')).toHaveAttribute('aria-label', 'You do not have permission to delete this database.');
    expect(screen.getByText(/You may not see the credentials/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reveal connection details/ })).not.toBeInTheDocument();
  });

  it('blocks delete while deletion protection is on', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db', deletionProtection: true }));
    await render(api, true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Scale' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(screen.getByTestId('blocked-delete')).toHaveAttribute('aria-label', 'Deletion protection is on. Turn it off first.');
  });

  it('scales after confirmation', async () => {
    const api = new FakeDatabasesApi();
    const current = makeInstance({ name: 'orders-db', replicas: 3 });
    api.getInstance.mockResolvedValue(current);
    api.updateInstance.mockResolvedValue(makeInstance({ name: 'orders-db', phase: 'Updating', replicas: 5, ready: 3 }));
    await render(api, true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Scale' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Scale' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Replicas' }), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Scale' }));
    await waitFor(() => expect(api.updateInstance).toHaveBeenCalledWith(ref, { replicas: 5, resourceVersion: '1' }));
    await waitFor(() => expect(screen.getByTestId('phase-banner')).toHaveTextContent('Updating'));
  });

  it('keeps what the stream showed when the answer to an action comes after it (the answer is older)', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    // the answer is held back until the stream has moved the instance on
    let answer: (v: Awaited<ReturnType<FakeDatabasesApi['updateInstance']>>) => void = () => undefined;
    api.updateInstance.mockReturnValue(new Promise(resolve => (answer = resolve)) as any);
    await render(api, true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pause' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(api.updateInstance).toHaveBeenCalledWith(ref, { paused: true }));
    const paused = makeInstance({ name: 'orders-db', phase: 'Paused', reason: 'Suspended', paused: true });
    act(() => api.emit({ type: 'MODIFIED', cluster: 'dev', instance: paused.instance }));
    await waitFor(() => expect(screen.getByTestId('phase-banner')).toHaveTextContent('Paused'));
    await act(async () => answer(makeInstance({ name: 'orders-db', phase: 'Updating', paused: true })));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('phase-banner')).toHaveTextContent('Paused');
  });

  it("checks the new replica count against the engine's rule for the topology, in its words", async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db', replicas: 3 }));
    await render(api, true);
    await waitFor(() => expect(api.listEngines).toHaveBeenCalledWith('dev'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Scale' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Scale' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Replicas' }), { target: { value: '4' } });
    expect(await within(dialog).findByText('galera needs an odd number of replicas, at least 3')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Scale' })).toBeDisabled();
    // no portal-wide ceiling: the engine's rule decides
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Replicas' }), { target: { value: '11' } });
    expect(within(dialog).getByRole('button', { name: 'Scale' })).toBeEnabled();
    expect(api.updateInstance).not.toHaveBeenCalled();
  });

  it('pauses after confirmation, and then offers Resume', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    api.updateInstance.mockResolvedValue(
      makeInstance({ name: 'orders-db', phase: 'Paused', reason: 'Suspended', paused: true }),
    );
    await render(api, true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pause' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/The phase shows Paused/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(api.updateInstance).toHaveBeenCalledWith(ref, { paused: true }));
    await waitFor(() => expect(screen.getByTestId('phase-banner')).toHaveTextContent('Paused'));
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeEnabled();
  });

  it('says why Pause is off for an engine whose operator cannot pause', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'cache', engine: 'redis' }));
    await render(api, true, { ...ref, name: 'cache' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pause' })).toBeDisabled());
    expect(screen.getByTestId('blocked-pause')).toHaveAttribute('aria-label', 'redis-operator has no way to pause a database.');
  });

  it('deletes only after the name is typed', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    await render(api, true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'orders-db' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(api.deleteInstance).toHaveBeenCalledWith(ref));
  });

  it('reveals connection details on click, each copyable', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    api.getConnection.mockResolvedValue({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstanceConnection',
      metadata: { name: 'orders-db', namespace: 'team-a' },
      engine: 'mariadb',
      host: 'orders-db-primary.team-a.svc',
      port: 3306,
      username: 'app',
      password: 's3cr3t',
      uri: 'mysql://app:s3cr3t@orders-db-primary.team-a.svc:3306/',
      endpoints: [],
    });
    await render(api, true);
    expect(screen.queryByText('s3cr3t')).not.toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: /Reveal connection details/ }));
    expect(await screen.findByText('s3cr3t')).toBeInTheDocument();
    expect(api.getConnection).toHaveBeenCalledWith(ref);
    expect(screen.getByRole('button', { name: 'Copy Password' })).toBeInTheDocument();
  });

  it('lists the members with their roles, readiness and DNS names', async () => {
    const api = new FakeDatabasesApi();
    const instance = makeInstance({ name: 'orders-db' });
    instance.instance.status!.members = [
      { name: 'orders-db-0', role: 'primary', engineRole: 'Primary', ready: true, host: 'orders-db-0.orders-db-internal.team-a.svc', node: 'node-a', since: '2026-02-02T10:00:00Z' },
      { name: 'orders-db-1', role: 'replica', engineRole: 'Replica', ready: false, host: 'orders-db-1.orders-db-internal.team-a.svc' },
    ];
    api.getInstance.mockResolvedValue(instance);
    await render(api, true);
    const table = screen.getByRole('table', { name: 'Members' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('orders-db-0');
    expect(rows[0]).toHaveTextContent('Primary');
    expect(rows[0]).toHaveTextContent('Ready');
    expect(rows[0]).toHaveTextContent('orders-db-0.orders-db-internal.team-a.svc');
    expect(rows[0]).toHaveTextContent('node-a');
    expect(rows[1]).toHaveTextContent('Replica');
    expect(rows[1]).toHaveTextContent('Not ready');
  });

  it('says when no members are known', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db' }));
    await render(api, true);
    expect(screen.getByText(/No members known/)).toBeInTheDocument();
  });
});
