import { CodeSnippet, CopyTextButton } from '@backstage/core-components';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { Box, Tab, Tabs, Typography } from '@material-ui/core';
import { useState } from 'react';
import { connectSnippets } from './connectSnippets';

/**
 * How an application connects: the instance's Service Binding Secret (`status.binding.name`) and
 * snippets that read it (a Deployment's env, WordPress' chart values, the URI and JDBC string, a
 * ServiceBinding). No snippet carries a credential: the Secret does, readable as Kubernetes RBAC
 * says; the values themselves stay behind the connection permission (Reveal, below).
 */
export function ConnectPanel(props: { instance: DatabaseInstance }) {
  const snippets = connectSnippets(props.instance);
  const [tab, setTab] = useState(0);
  const binding = props.instance.status?.binding?.name;
  if (!binding) {
    return (
      <Typography variant="body2" color="textSecondary" data-testid="connect-no-binding">
        No binding Secret yet: it appears once the operator has made the credentials.
      </Typography>
    );
  }
  const current = snippets[Math.min(tab, snippets.length - 1)];
  return (
    <Box data-testid="connect-panel">
      <Box display="flex" alignItems="center" style={{ gap: 8 }}>
        <Typography variant="body2">
          Binding Secret <code data-testid="binding-secret">{binding}</code> in {props.instance.metadata.namespace}
        </Typography>
        <CopyTextButton text={binding} tooltipText="Secret name copied" aria-label="Copy the binding Secret's name" />
      </Box>
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} indicatorColor="primary" textColor="primary" variant="scrollable" aria-label="Ways to connect">
        {snippets.map(s => (
          <Tab key={s.id} label={s.title} />
        ))}
      </Tabs>
      <Box mt={1} data-testid={`connect-snippet-${current.id}`}>
        <CodeSnippet text={current.text} language={current.language} showCopyCodeButton />
        {current.note && (
          <Typography variant="caption" color="textSecondary">
            {current.note}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
