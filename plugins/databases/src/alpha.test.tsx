import { describe, expect, it } from '@jest/globals';
import { createExtensionTester, mockApis, renderInTestApp, renderTestApp } from '@backstage/frontend-test-utils';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import type { Entity } from '@backstage/catalog-model';
import { screen } from '@testing-library/react';
import plugin, { databasesPage, entityDatabasesCard, entityDatabasesContent } from './alpha';
import { databasesApiRef } from './api/types';
import { isDatabasesAvailable } from './isDatabasesAvailable';
import { FakeDatabasesApi, listOf, makeInstance } from './testUtils/FakeDatabasesApi';

const orders: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'orders', annotations: { 'backstage.io/kubernetes-id': 'orders' } },
  spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
};

function fakeApi() {
  const api = new FakeDatabasesApi();
  const rows = listOf([makeInstance({ name: 'orders-db', phase: 'Ready', component: 'orders' })]);
  api.listInstances.mockResolvedValue(rows);
  api.listEntityInstances.mockResolvedValue(rows);
  return api;
}

/** The new frontend system's extensions, mounted by the framework as an app would. */
describe('databases plugin (new frontend system)', () => {
  it('declares its extensions: the API, the page, the entity card and the entity tab', () => {
    expect(plugin.pluginId).toBe('databases');
    const ids = [databasesPage, entityDatabasesCard, entityDatabasesContent].map(e => String((e as any).kind));
    expect(ids).toEqual(['page', 'entity-card', 'entity-content']);
  });

  it('mounts the Databases page at /databases through the app', async () => {
    const api = fakeApi();
    renderTestApp({
      extensions: [databasesPage],
      initialRouteEntries: ['/databases'],
      apis: [[databasesApiRef, api], mockApis.permission()],
    });
    expect(await screen.findByText('orders-db')).toBeInTheDocument();
    expect(api.listInstances).toHaveBeenCalled();
  });

  it("renders the entity card's element on a component page", async () => {
    const api = fakeApi();
    const card = createExtensionTester(entityDatabasesCard).reactElement();
    await renderInTestApp(<EntityProvider entity={orders}>{card}</EntityProvider>, {
      apis: [[databasesApiRef, api], mockApis.permission()],
    });
    expect(await screen.findByText('orders-db')).toBeInTheDocument();
    expect(api.listEntityInstances).toHaveBeenCalledWith('component:default/orders');
  });

  it('shows the card and tab only on components that can have databases', () => {
    expect(isDatabasesAvailable(orders)).toBe(true);
    expect(isDatabasesAvailable({ ...orders, kind: 'Group', spec: {} } as Entity)).toBe(false);
  });
});
