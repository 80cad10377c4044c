import { Alert, AlertTitle } from '@material-ui/lab';
import { Button } from '@material-ui/core';
import { explainError } from '../../lib/explainError';

/**
 * Shows what failed and what to do, with the server's own message, and a retry button when
 * the caller can retry.
 */
export function ErrorExplanation(props: { error: unknown; doing: string; onRetry?: () => void }) {
  const { title, detail, action } = explainError(props.error, props.doing);
  return (
    <Alert
      severity="error"
      data-testid="error-explanation"
      action={
        props.onRetry ? (
          <Button color="inherit" size="small" onClick={props.onRetry}>
            Retry
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{title}</AlertTitle>
      <div>{detail}</div>
      <div>
        <strong>What to do:</strong> {action}
      </div>
    </Alert>
  );
}
