import Typography from '@material-ui/core/Typography';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { backupSummary } from '../../lib/backupSummary';

/** The Databases page's "Last backup" cell: "3h ago", red "failed 20m ago", "never", or nothing. */
export function LastBackup(props: { instance: DatabaseInstance }) {
  const summary = backupSummary(props.instance);
  if (!summary) return null;
  return (
    <Typography
      variant="body2"
      component="span"
      color={summary.failed ? 'error' : summary.text === 'never' ? 'textSecondary' : 'textPrimary'}
      title={summary.title}
      data-testid="last-backup"
    >
      {summary.text}
    </Typography>
  );
}
