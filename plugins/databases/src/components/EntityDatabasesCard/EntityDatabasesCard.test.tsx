import { describe, expect, it } from '@jest/globals';
import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import type { Entity } from '@backstage/catalog-model';
import { act, screen, waitFor, within } from '@testing-library/react';
import { databasesApiRef } from '../../api/types';
import { FakeDatabasesApi, listOf, makeInstance } from '../../testUtils/FakeDatabasesApi';
import { EntityDatabasesCard } from './EntityDatabasesCard';

const entity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'orders', annotations: { 'backstage.io/kubernetes-id': 'orders' } },
  spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
};

function render(api: FakeDatabasesApi) {
  return renderInTestApp(
    <EntityProvider entity={entity}>
      <EntityDatabasesCard />
    </EntityProvider>,
    { apis: [[databasesApiRef, api], mockApis.permission()] },
  );
}

describe('EntityDatabasesCard', () => {
  it("lists the component's databases with phase, engine, version and ready replicas", async () => {
    const api = new FakeDatabasesApi();
    api.listEntityInstances.mockResolvedValue(
      listOf([
        makeInstance({ name: 'orders-db', phase: 'Ready', version: '11.4', replicas: 3, ready: 3, component: 'orders' }),
        makeInstance({ name: 'orders-cache', engine: 'redis', phase: 'Provisioning', version: '7.2', replicas: 1, ready: 0, component: 'orders' }),
      ]),
    );
    await render(api);
    const row = (await screen.findByText('orders-db')).closest('tr')!;
    expect(within(row).getByText('Ready')).toBeInTheDocument();
    expect(within(row).getByText(/mariadb/)).toBeInTheDocument();
    expect(within(row).getByText('11.4')).toBeInTheDocument();
    expect(within(row).getByText('3/3')).toBeInTheDocument();
    const cache = screen.getByText('orders-cache').closest('tr')!;
    expect(within(cache).getByText('Provisioning')).toBeInTheDocument();
    expect(within(cache).getByText('0/1')).toBeInTheDocument();
    expect(api.listEntityInstances).toHaveBeenCalledWith('component:default/orders');
    expect(screen.getByText('orders-db').closest('a')).toHaveAttribute('href', '/databases/dev/team-a/orders-db');
  });

  it('updates a phase live from the event stream', async () => {
    const api = new FakeDatabasesApi();
    const pending = makeInstance({ name: 'orders-db', phase: 'Provisioning', component: 'orders' });
    api.listEntityInstances.mockResolvedValue(listOf([pending]));
    await render(api);
    const row = (await screen.findByText('orders-db')).closest('tr')!;
    expect(within(row).getByText('Provisioning')).toBeInTheDocument();
    const ready = makeInstance({ name: 'orders-db', phase: 'Ready', component: 'orders' });
    // the card also refetches after an event; the backend then knows the new phase too
    api.listEntityInstances.mockResolvedValue(listOf([ready]));
    const callsBefore = api.listEntityInstances.mock.calls.length;
    act(() => api.emit({ type: 'MODIFIED', cluster: 'dev', instance: ready.instance }));
    expect(await within(row).findByText('Ready')).toBeInTheDocument();
    expect(within(row).queryByText('Provisioning')).not.toBeInTheDocument();
    await waitFor(() => expect(api.listEntityInstances.mock.calls.length).toBeGreaterThan(callsBefore));
  });

  it('offers to request a database for the component when it has none', async () => {
    const api = new FakeDatabasesApi();
    await render(api);
    const link = await screen.findByText('Request a database for this component');
    expect(link.closest('a')).toHaveAttribute(
      'href',
      `/databases/request?entity=${encodeURIComponent('component:default/orders')}`,
    );
  });

  it('says what failed when the backend fails', async () => {
    const api = new FakeDatabasesApi();
    api.listEntityInstances.mockRejectedValue(new Error('socket hang up'));
    await render(api);
    expect(await screen.findByText(/socket hang up/)).toBeInTheDocument();
    expect(screen.getByText(/What to do:/)).toBeInTheDocument();
  });
});
