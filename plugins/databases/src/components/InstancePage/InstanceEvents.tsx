import { useApi } from '@backstage/core-plugin-api';
import type { InstanceKubeEvent } from '@internal/plugin-databases-common';
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@material-ui/core';
import { useEffect, useState } from 'react';
import { databasesApiRef, InstanceRef } from '../../api/types';
import { formatAge } from '../../lib/format';
import { ErrorExplanation } from '../ErrorExplanation';
import { applyEventChange } from './applyEventChange';

/**
 * The instance's Kubernetes events (its operator object's and those of the pods, claims and
 * StatefulSets the operator made, mirrored onto it by the apiserver), newest last, as
 * `kubectl describe` lists them, live: the backend watches them as the user for as long as the
 * card is on screen. The last list stays on screen while a broken stream is opened again.
 */
export function InstanceEvents(props: { instanceRef: InstanceRef }) {
  const api = useApi(databasesApiRef);
  const { instanceRef } = props;
  const [events, setEvents] = useState<InstanceKubeEvent[]>();
  const [error, setError] = useState<unknown>();

  useEffect(
    () =>
      api.watchInstanceEvents(instanceRef, {
        onList: items => {
          setEvents(items);
          setError(undefined);
        },
        onChange: change => setEvents(list => applyEventChange(list ?? [], change)),
        onError: setError,
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, instanceRef.cluster, instanceRef.namespace, instanceRef.name],
  );

  if (error !== undefined && !events)
    return <ErrorExplanation error={error} doing={`read the events of ${instanceRef.name}`} />;
  if (!events)
    return (
      <Typography variant="body2" color="textSecondary">
        Reading the events…
      </Typography>
    );
  if (events.length === 0)
    return (
      <Typography variant="body2" color="textSecondary" data-testid="events-none">
        No events: neither the operator nor Kubernetes reported anything about it lately (events are kept for an hour).
      </Typography>
    );
  return (
    <Table size="small" aria-label="Events">
      <TableHead>
        <TableRow>
          <TableCell>Type</TableCell>
          <TableCell>Reason</TableCell>
          <TableCell>Age</TableCell>
          <TableCell>From</TableCell>
          <TableCell>Object</TableCell>
          <TableCell>Message</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {events.map((e, i) => (
          <TableRow key={e.name ?? `${e.lastTimestamp}-${e.reason}-${e.about}-${i}`}>
            <TableCell style={{ color: e.type === 'Warning' ? '#b71c1c' : undefined }}>{e.type}</TableCell>
            <TableCell>{e.reason}</TableCell>
            <TableCell>
              {formatAge(e.lastTimestamp)}
              {e.count > 1 ? ` (×${e.count} over ${formatAge(e.firstTimestamp)})` : ''}
            </TableCell>
            <TableCell>{e.from ?? ''}</TableCell>
            <TableCell>{e.about ?? 'the operator object'}</TableCell>
            <TableCell>{e.message}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
