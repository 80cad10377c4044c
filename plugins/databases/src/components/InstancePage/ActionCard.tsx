import { InfoCard } from '@backstage/core-components';
import { Box, Tooltip, Typography } from '@material-ui/core';
import { Alert } from '@material-ui/lab';
import type { ReactNode } from 'react';
import { ErrorExplanation } from '../ErrorExplanation';

/**
 * A card with one action in its header (Back up now, Add schedule) and what the card's actions
 * said last: why the action is off (`blocker`, also the button's tooltip: a disabled button fires
 * no events, so a span carries it), a notice, and the error of the last action when no dialog
 * shows it. `testIds` name the blocker's two elements (the span around the action, the line).
 */
export function ActionCard(props: {
  title: string;
  action: ReactNode;
  blocker?: string;
  testIds: { blocked: string; blocker: string };
  notice?: { text: string; severity: 'info' | 'warning'; testId: string; onClose(): void };
  error?: { error: unknown; doing: string };
  children: ReactNode;
}) {
  const { title, action, blocker, testIds, notice, error, children } = props;
  return (
    <InfoCard
      title={title}
      action={
        <Box mt={1} mr={1}>
          {blocker ? (
            <Tooltip title={blocker}>
              <span data-testid={testIds.blocked} aria-label={blocker}>
                {action}
              </span>
            </Tooltip>
          ) : (
            action
          )}
        </Box>
      }
    >
      {blocker && (
        <Typography variant="body2" color="textSecondary" data-testid={testIds.blocker}>
          {blocker}
        </Typography>
      )}
      {notice && (
        <Box mb={2}>
          <Alert severity={notice.severity} onClose={notice.onClose} data-testid={notice.testId}>
            {notice.text}
          </Alert>
        </Box>
      )}
      {error && (
        <Box mb={2}>
          <ErrorExplanation error={error.error} doing={error.doing} />
        </Box>
      )}
      {children}
    </InfoCard>
  );
}
