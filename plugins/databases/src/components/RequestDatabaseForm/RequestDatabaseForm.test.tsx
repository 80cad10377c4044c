import { describe, expect, it } from '@jest/globals';
import { mockApis, renderInTestApp } from '@backstage/frontend-test-utils';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DatabasesApiError } from '../../api/DatabasesApiError';
import { databasesApiRef } from '../../api/types';
import { FakeDatabasesApi, makeEngine } from '../../testUtils/FakeDatabasesApi';
import { RequestDatabaseForm } from './RequestDatabaseForm';

async function render(api: FakeDatabasesApi) {
  const result = await renderInTestApp(<RequestDatabaseForm />, {
    apis: [
      [databasesApiRef, api],
      mockApis.identity({ userEntityRef: 'user:default/alice', ownershipEntityRefs: ['user:default/alice', 'group:default/team-a'] }),
      catalogApiMock(),
      mockApis.permission(),
    ],
    initialRouteEntries: ['/databases/request?entity=component:default/orders'],
  });
  // defaults arrive asynchronously: cluster, then the owner (and namespace from it)
  await waitFor(() => expect(screen.getByRole('button', { name: /^Owner \(team\)/ })).toHaveTextContent('group:default/team-a'));
  return result;
}

async function pick(label: string, option: RegExp | string) {
  fireEvent.mouseDown(screen.getByRole('button', { name: new RegExp(`^${label}`) }));
  const listbox = await screen.findByRole('listbox');
  fireEvent.click(within(listbox).getByRole('option', { name: option }));
}

function type(label: RegExp | string, value: string) {
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
}

async function fillValid() {
  await pick('Engine', 'mariadb');
  await pick('Topology', 'galera');
  type('Name', 'orders-db');
}

describe('RequestDatabaseForm', () => {
  it('offers the engines of the cluster and marks the ones whose operator is missing', async () => {
    const api = new FakeDatabasesApi();
    await render(api);
    await waitFor(() => expect(api.listEngines).toHaveBeenCalledWith('dev'));
    fireEvent.mouseDown(screen.getByRole('button', { name: /^Engine/ }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('option', { name: 'mariadb' })).not.toHaveAttribute('aria-disabled', 'true');
    expect(within(listbox).getByRole('option', { name: /redis \(operator not installed\)/ })).toHaveAttribute('aria-disabled', 'true');
  });

  it('validates as the user types', async () => {
    const api = new FakeDatabasesApi();
    await render(api);
    type('Name', 'Orders_DB');
    expect(await screen.findByText(/Lower-case letters, digits and "-"/)).toBeInTheDocument();
    type('Name', 'orders-db');
    await waitFor(() => expect(screen.queryByText(/Lower-case letters, digits and "-"/)).not.toBeInTheDocument());
  });

  it('previews with a dry run, then creates exactly that', async () => {
    const api = new FakeDatabasesApi();
    await render(api);
    await fillValid();
    const create = screen.getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByTestId('dry-run-preview')).toHaveTextContent(/orders-db/);
    const [cluster, namespace, dryRunRequest] = api.createInstance.mock.calls[0];
    expect([cluster, namespace]).toEqual(['dev', 'team-a']);
    expect(dryRunRequest).toMatchObject({
      name: 'orders-db',
      owner: 'group:default/team-a',
      entityRef: 'component:default/orders',
      dryRun: true,
      spec: { engine: 'mariadb', topology: 'galera', version: '11.4', replicas: 3 },
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.createInstance).toHaveBeenCalledTimes(2));
    const { dryRun, ...created } = api.createInstance.mock.calls[1][2] as any;
    const { dryRun: _ignored, ...previewed } = dryRunRequest as any;
    expect(dryRun).toBeUndefined();
    expect(created).toEqual(previewed);
  });

  it('offers the sizes of the picked engine, sends the chosen one as the engine states it, or a custom one as typed', async () => {
    const api = new FakeDatabasesApi();
    await render(api);
    await fillValid();
    expect(screen.getByRole('button', { name: /^Size/ })).toHaveTextContent('Small (250m CPU, 512Mi memory, 10Gi storage)');
    fireEvent.mouseDown(screen.getByRole('button', { name: /^Size/ }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map(o => o.textContent)).toEqual([
      'Small (250m CPU, 512Mi memory, 10Gi storage)',
      'Medium (500m CPU, 1Gi memory, 50Gi storage)',
      'Custom',
    ]);
    fireEvent.click(within(listbox).getByRole('option', { name: /^Medium/ }));
    const storage = screen.getByRole('textbox', { name: /^Storage/ });
    await waitFor(() => expect(storage).toHaveValue('50Gi'));
    expect(storage).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(api.createInstance).toHaveBeenCalledTimes(1));
    expect(api.createInstance.mock.calls[0][2]).toMatchObject({
      spec: { storage: { size: '50Gi' }, resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '2Gi' } } },
    });

    await pick('Size', 'Custom');
    expect(storage).toBeEnabled();
    type(/^Storage/, '3Gi');
    type(/^CPU request/, '2');
    type(/^Memory request/, '6 GB');
    expect(await screen.findByText('Memory such as 1Gi.')).toBeInTheDocument();
    type(/^Memory request/, '6Gi');
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(api.createInstance).toHaveBeenCalledTimes(2));
    const { spec } = api.createInstance.mock.calls[1][2] as any;
    expect(spec.storage).toEqual({ size: '3Gi' });
    expect(spec.resources).toEqual({ requests: { cpu: '2', memory: '6Gi' } });
  });

  it("checks replicas with the engine's own rule and words as the user types", async () => {
    const api = new FakeDatabasesApi();
    const strict = { min: 5, max: 7, odd: true, default: 5, description: 'Galera here runs 5 or 7 members' };
    api.listEngines.mockResolvedValue({
      cluster: 'dev',
      items: [makeEngine('mariadb', true, { replicas: { ...makeEngine('mariadb').spec.replicas, galera: strict } })],
    });
    await render(api);
    await fillValid();
    const replicas = screen.getByRole('textbox', { name: /^Replicas/ });
    expect(replicas).toHaveValue('5');
    type(/^Replicas/, '3');
    await waitFor(() => expect(replicas).toHaveAccessibleDescription('Galera here runs 5 or 7 members'));
    type(/^Replicas/, '7');
    await waitFor(() => expect(replicas).not.toHaveAttribute('aria-invalid', 'true'));
    await pick('Topology', 'standalone');
    await waitFor(() => expect(replicas).toHaveValue('1'));
    type(/^Replicas/, '2');
    await waitFor(() => expect(replicas).toHaveAccessibleDescription('standalone runs exactly 1 replica'));
  });

  it('offers only a custom size, prefilled with the defaults, when the engine states no sizes', async () => {
    const api = new FakeDatabasesApi();
    api.listEngines.mockResolvedValue({ cluster: 'dev', items: [makeEngine('mariadb', true, { sizes: undefined })] });
    await render(api);
    await pick('Engine', 'mariadb');
    expect(screen.getByRole('button', { name: /^Size/ })).toHaveTextContent('Custom');
    expect(screen.getByRole('textbox', { name: /^Storage/ })).toHaveValue('10Gi');
    expect(screen.getByRole('textbox', { name: /^Storage/ })).toBeEnabled();
  });

  it("shows the server's field errors next to the fields", async () => {
    const api = new FakeDatabasesApi();
    api.createInstance.mockRejectedValue(
      new DatabasesApiError({
        statusCode: 422,
        reason: 'Invalid',
        message: 'DatabaseInstance.dbaas.platform.dev "orders-db" is invalid',
        causes: [{ field: 'spec.replicas', message: 'Galera on this cluster needs 5 members' }],
      }),
    );
    await render(api);
    await fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const replicas = screen.getByRole('textbox', { name: /^Replicas/ });
    await waitFor(() => expect(replicas).toHaveAccessibleDescription('Galera on this cluster needs 5 members'));
    expect(screen.getByText('Some values are not accepted')).toBeInTheDocument();
  });

  it('explains a policy refusal in words', async () => {
    const api = new FakeDatabasesApi();
    api.createInstance.mockRejectedValue(
      new DatabasesApiError({ statusCode: 403, message: 'admission webhook denied the request: team-a already has 3 databases (quota)' }),
    );
    await render(api);
    await fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText(/A policy refused to/)).toBeInTheDocument();
    expect(screen.getByText(/team-a already has 3 databases/)).toBeInTheDocument();
    expect(screen.getByText(/ask the platform team for an exception/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
  });
});

