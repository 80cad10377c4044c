import { describe, expect, it } from '@jest/globals';
import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { databasesApiRef } from '../../api/types';
import { FakeDatabasesApi, listOf, makeInstance } from '../../testUtils/FakeDatabasesApi';
import { DatabasesPage } from './DatabasesPage';

const apis = (api: FakeDatabasesApi) =>
  [[databasesApiRef, api], mockApis.permission(), mockApis.identity(), catalogApiMock()] as const;

describe('DatabasesPage', () => {
  it('shows counts by phase and engine, the table, and partial cluster failures', async () => {
    const api = new FakeDatabasesApi();
    api.listInstances.mockResolvedValue({
      ...listOf([
        makeInstance({ name: 'orders-db', phase: 'Ready', owner: 'group:default/team-a' }),
        makeInstance({ name: 'cart-cache', engine: 'redis', phase: 'Failed' }),
        makeInstance({ name: 'search', engine: 'elasticsearch', phase: 'Ready' }),
      ]),
      errors: [{ cluster: 'prod', errorType: 'UNREACHABLE', message: 'connect ECONNREFUSED' }],
    });
    await renderInTestApp(<DatabasesPage />, {
      apis: apis(api),
      initialRouteEntries: ['/databases'],
      mountPath: '/databases',
      // owners link to their catalog page
      mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
    });
    expect(await screen.findByTestId('total-count')).toHaveTextContent('3');
    expect(screen.getByTestId('phase-count-Ready')).toHaveTextContent('Ready 2');
    expect(screen.getByTestId('phase-count-Failed')).toHaveTextContent('Failed 1');
    expect(screen.getByTestId('engine-count-redis')).toHaveTextContent('1');
    expect(screen.getByTestId('cluster-error')).toHaveTextContent(/prod.*ECONNREFUSED/);
    const row = screen.getByText('orders-db').closest('tr')!;
    expect(within(row).getByText('Ready')).toBeInTheDocument();
  });

  it("says when each instance was last backed up: red when the last run failed, never, or nothing where the engine has no backups", async () => {
    const api = new FakeDatabasesApi();
    const capable = { onDemand: true, schedule: true, restore: true, pointInTime: false };
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    api.listInstances.mockResolvedValue(
      listOf([
        makeInstance({ name: 'backed-up', backup: { ...capable, lastSuccessfulTime: ago(3), lastFailedTime: ago(30) } }),
        makeInstance({ name: 'last-failed', backup: { ...capable, lastSuccessfulTime: ago(30), lastFailedTime: ago(2) } }),
        makeInstance({ name: 'not-yet', backup: { ...capable, nextScheduleTime: ago(-1) } }),
        makeInstance({ name: 'no-backups', engine: 'redis' }),
      ]),
    );
    await renderInTestApp(<DatabasesPage />, { apis: apis(api), initialRouteEntries: ['/databases'], mountPath: '/databases' });
    expect(await screen.findByRole('columnheader', { name: 'Last backup' })).toBeInTheDocument();
    const cell = (name: string) => within(screen.getByText(name).closest('tr')!).queryByTestId('last-backup');
    expect(cell('backed-up')).toHaveTextContent('3h ago');
    expect(cell('backed-up')!.className).not.toMatch(/colorError/);
    expect(cell('last-failed')).toHaveTextContent('failed 2h ago');
    expect(cell('last-failed')!.className).toMatch(/colorError/);
    expect(cell('last-failed')).toHaveAttribute('title', expect.stringMatching(/^last success .*; last failure /));
    expect(cell('not-yet')).toHaveTextContent('never');
    expect(cell('not-yet')).toHaveAttribute('title', expect.stringMatching(/^No backup has run; next scheduled run /));
    expect(cell('no-backups')).toBeNull();
  });

  it('asks the backend again when a filter, the sort or the search changes', async () => {
    const api = new FakeDatabasesApi();
    api.listInstances.mockResolvedValue(listOf([makeInstance({ name: 'orders-db', phase: 'Failed' })]));
    await renderInTestApp(<DatabasesPage />, { apis: apis(api), initialRouteEntries: ['/databases'], mountPath: '/databases' });
    await screen.findByText('orders-db');
    expect(api.listInstances).toHaveBeenLastCalledWith(expect.objectContaining({ sort: 'name' }));

    fireEvent.click(screen.getByTestId('phase-count-Failed'));
    await waitFor(() => expect(api.listInstances).toHaveBeenLastCalledWith(expect.objectContaining({ phase: 'Failed' })));

    fireEvent.click(screen.getByText('Age'));
    await waitFor(() => expect(api.listInstances).toHaveBeenLastCalledWith(expect.objectContaining({ sort: 'age' })));
    fireEvent.click(screen.getByText('Age'));
    await waitFor(() => expect(api.listInstances).toHaveBeenLastCalledWith(expect.objectContaining({ sort: '-age' })));

    fireEvent.change(screen.getByRole('textbox', { name: 'Search databases' }), { target: { value: 'orders' } });
    await waitFor(() => expect(api.listInstances).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'orders', phase: 'Failed' })));
  });

  it('routes to the request form and to an instance below its base path', async () => {
    const api = new FakeDatabasesApi();
    api.getInstance.mockResolvedValue(makeInstance({ name: 'orders-db', phase: 'Ready' }));
    await renderInTestApp(<DatabasesPage />, {
      apis: apis(api),
      initialRouteEntries: ['/databases/dev/team-a/orders-db'],
      mountPath: '/databases/*',
    });
    expect(await screen.findByTestId('phase-banner')).toBeInTheDocument();
    expect(api.getInstance).toHaveBeenCalledWith(expect.objectContaining({ cluster: 'dev', namespace: 'team-a', name: 'orders-db' }));
    // back to the list from the header's label slot, which takes the header's colours
    const back = screen.getByRole('link', { name: 'All databases' });
    expect(back).toHaveAttribute('href', '/databases');
    expect(back.closest('.BackstageHeaderLabel-root, [class*="BackstageHeaderLabel-root"]')).not.toBeNull();
  });
});
