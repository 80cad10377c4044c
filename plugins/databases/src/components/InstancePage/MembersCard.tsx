import { InfoCard, StatusOK, StatusPending } from '@backstage/core-components';
import type { DatabaseMember } from '@internal/plugin-databases-common';
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@material-ui/core';

const ROLE_LABEL: Record<DatabaseMember['role'], string> = {
  primary: 'Primary',
  replica: 'Replica',
  member: 'Member',
};

/** The instance's members (status.members): each pod with its role, readiness and DNS name. */
export function MembersCard({ members }: { members: DatabaseMember[] | undefined }) {
  return (
    <InfoCard title="Members">
      {members?.length ? (
        <Table size="small" aria-label="Members">
          <TableHead>
            <TableRow>
              <TableCell>Member</TableCell>
              <TableCell>Role</TableCell>
              <TableCell>Ready</TableCell>
              <TableCell>Host</TableCell>
              <TableCell>Node</TableCell>
              <TableCell>Since</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {members.map(m => (
              <TableRow key={m.name}>
                <TableCell style={{ fontFamily: 'monospace' }}>{m.name}</TableCell>
                <TableCell>
                  {ROLE_LABEL[m.role] ?? m.role}
                  {m.engineRole && m.engineRole.toLowerCase() !== m.role ? ` (${m.engineRole})` : ''}
                </TableCell>
                <TableCell>{m.ready ? <StatusOK>Ready</StatusOK> : <StatusPending>Not ready</StatusPending>}</TableCell>
                <TableCell style={{ fontFamily: 'monospace' }}>{m.host ?? '—'}</TableCell>
                <TableCell>{[m.node, m.zone].filter(Boolean).join(' / ') || '—'}</TableCell>
                <TableCell>{m.since ? new Date(m.since).toLocaleString() : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <Typography variant="body2" color="textSecondary">
          No members known: the operator has not named any pods for this instance yet.
        </Typography>
      )}
    </InfoCard>
  );
}
