import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@material-ui/core';
import type { ReactNode } from 'react';
import { ErrorExplanation } from '../ErrorExplanation';

/**
 * "Delete <name>?" with what the delete does and does not do (`warning`, shown before anything is
 * deleted), the error of the last try in place, and the confirming button.
 */
export function ConfirmDeleteDialog(props: {
  /** What is deleted; absent: the dialog is closed. */
  name?: string;
  title: string;
  warning: ReactNode;
  /** `data-testid` of the warning. */
  warningTestId: string;
  confirmLabel: string;
  busy: boolean;
  error: unknown;
  onCancel(): void;
  onConfirm(): void;
}) {
  const { name, title, warning, warningTestId, confirmLabel, busy, error, onCancel, onConfirm } = props;
  const titleId = `${warningTestId}-title`;
  return (
    <Dialog open={name !== undefined} onClose={onCancel} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText data-testid={warningTestId}>{warning}</DialogContentText>
        {error !== undefined && (
          <Box mt={2}>
            <ErrorExplanation error={error} doing={`delete ${name}`} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {busy && <CircularProgress size={20} />}
        <Button onClick={onCancel}>Cancel</Button>
        <Button color="secondary" variant="contained" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
