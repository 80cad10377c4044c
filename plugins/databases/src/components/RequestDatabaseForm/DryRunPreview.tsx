import { CodeSnippet } from '@backstage/core-components';
import { PortalInstance } from '@internal/plugin-databases-common';
import { Typography } from '@material-ui/core';

/** What a dry run of the request says would be created, or how to get there when there is none for the current values. */
export function DryRunPreview(props: { result?: PortalInstance }) {
  const { result } = props;
  if (!result) {
    return (
      <Typography variant="body2" color="textSecondary">
        Press Preview to see the object the cluster would create, with its defaults filled in.
      </Typography>
    );
  }
  return (
    <div data-testid="dry-run-preview">
      <Typography variant="body2" paragraph>
        The cluster accepted this request (dry run). Creating it will make a{' '}
        <strong>{result.instance.spec.engine}</strong>{' '}
        {result.instance.spec.topology} database{' '}
        <strong>{result.instance.metadata.name}</strong> in namespace{' '}
        <strong>{result.instance.metadata.namespace}</strong> of cluster{' '}
        <strong>{result.cluster}</strong>
        {result.instance.status?.source
          ? `, as a ${result.instance.status.source.kind} of the ${result.instance.status.source.operator}`
          : ''}
        .
      </Typography>
      <CodeSnippet text={JSON.stringify(result.instance, null, 2)} language="json" showCopyCodeButton />
    </div>
  );
}
