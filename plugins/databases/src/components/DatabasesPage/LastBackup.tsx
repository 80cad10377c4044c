import Typography from '@material-ui/core/Typography';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { backupSummary, type BackupSummary } from '../../lib/backupSummary';

function colorOf(summary: BackupSummary): 'error' | 'textSecondary' | 'textPrimary' {
  if (summary.failed) return 'error';
  return summary.text === 'never' ? 'textSecondary' : 'textPrimary';
}

/** The Databases page's "Last backup" cell: "3h ago", red "failed 20m ago", "never", or nothing. */
export function LastBackup(props: { instance: DatabaseInstance }) {
  const summary = backupSummary(props.instance);
  if (!summary) return null;
  return (
    <Typography
      variant="body2"
      component="span"
      color={colorOf(summary)}
      title={summary.title}
      data-testid="last-backup"
    >
      {summary.text}
    </Typography>
  );
}
