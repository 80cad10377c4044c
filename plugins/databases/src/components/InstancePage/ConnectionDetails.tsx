import { CopyTextButton } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import type { ConnectionResponse } from '@internal/plugin-databases-common';
import {
  Box,
  Button,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@material-ui/core';
import LockIcon from '@material-ui/icons/Lock';
import { useState } from 'react';
import { databasesApiRef, InstanceRef } from '../../api/types';
import { ErrorExplanation } from '../ErrorExplanation';

function Row(props: { label: string; value?: string | number }) {
  if (props.value === undefined || props.value === '') return null;
  const text = String(props.value);
  return (
    <TableRow>
      <TableCell component="th" scope="row" style={{ width: 120 }}>
        {props.label}
      </TableCell>
      <TableCell style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{text}</TableCell>
      <TableCell style={{ width: 48 }}>
        <CopyTextButton text={text} tooltipText={`${props.label} copied`} aria-label={`Copy ${props.label}`} />
      </TableCell>
    </TableRow>
  );
}

/**
 * Connection details behind their own permission: fetched only when the user clicks Reveal,
 * each value copyable.
 */
export function ConnectionDetails(props: { instanceRef: InstanceRef; allowed: boolean; ready: boolean }) {
  const api = useApi(databasesApiRef);
  const [connection, setConnection] = useState<ConnectionResponse>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(false);

  const reveal = async () => {
    setLoading(true);
    setError(undefined);
    try {
      setConnection(await api.getConnection(props.instanceRef));
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };

  if (!props.allowed) {
    return (
      <Box display="flex" alignItems="center" style={{ gap: 8 }}>
        <LockIcon color="disabled" />
        <Typography variant="body2" color="textSecondary">
          You may not see the credentials of this database. Members of the owning team can.
        </Typography>
      </Box>
    );
  }
  if (!connection) {
    return (
      <Box>
        <Tooltip title={props.ready ? '' : 'Credentials exist once the database is ready; you can try anyway.'}>
          <span>
            <Button variant="outlined" color="primary" onClick={reveal} disabled={loading} startIcon={<LockIcon />}>
              Reveal connection details
            </Button>
          </span>
        </Tooltip>
        {error !== undefined && (
          <Box mt={2}>
            <ErrorExplanation error={error} doing="read the connection details" onRetry={reveal} />
          </Box>
        )}
      </Box>
    );
  }
  return (
    <Box>
      <Table size="small" aria-label="Connection details">
        <TableBody>
          <Row label="URI" value={connection.uri} />
          <Row label="Host" value={connection.host} />
          <Row label="Port" value={connection.port} />
          <Row label="Username" value={connection.username} />
          <Row label="Password" value={connection.password} />
          {connection.endpoints
            .filter(ep => ep.uri && ep.uri !== connection.uri)
            .map(ep => (
              <Row key={ep.name} label={ep.name} value={ep.uri} />
            ))}
        </TableBody>
      </Table>
      <Box mt={1}>
        <Button size="small" onClick={() => setConnection(undefined)}>
          Hide
        </Button>
        {connection.secretRef && (
          <Typography variant="caption" color="textSecondary" style={{ marginLeft: 8 }}>
            From Secret {connection.secretRef.name}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
