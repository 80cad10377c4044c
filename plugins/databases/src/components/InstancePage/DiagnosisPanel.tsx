import { useApi } from '@backstage/core-plugin-api';
import type {
  DatabaseInstanceDiagnosis,
  DiagnosisSeverity,
} from '@internal/plugin-databases-common';
import { Box, Typography } from '@material-ui/core';
import { Alert, AlertTitle } from '@material-ui/lab';
import { useEffect, useState } from 'react';
import { databasesApiRef, InstanceRef } from '../../api/types';
import { ErrorExplanation } from '../ErrorExplanation';

const SEVERITY: Record<DiagnosisSeverity, 'error' | 'warning' | 'info'> = {
  Error: 'error',
  Warning: 'warning',
  Info: 'info',
};

/**
 * What is wrong with an instance, in plain words with a hint each (the apiserver's diagnosis,
 * from the operator status, the pods and the volume claims). Asked again whenever the instance
 * changes (`version` is its resourceVersion), so it follows the live page; the last answer stays
 * on screen while the next is on its way.
 */
export function DiagnosisPanel(props: {
  instanceRef: InstanceRef;
  version?: string;
}) {
  const api = useApi(databasesApiRef);
  const { instanceRef, version } = props;
  const [diagnosis, setDiagnosis] = useState<DatabaseInstanceDiagnosis>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    let current = true;
    api.getDiagnosis(instanceRef).then(
      d => {
        if (!current) return;
        setDiagnosis(d);
        setError(undefined);
      },
      e => current && setError(e),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    api,
    instanceRef.cluster,
    instanceRef.namespace,
    instanceRef.name,
    version,
  ]);

  if (error !== undefined && !diagnosis)
    return (
      <ErrorExplanation error={error} doing={`diagnose ${instanceRef.name}`} />
    );
  if (!diagnosis)
    return (
      <Typography variant="body2" color="textSecondary">
        Looking at the instance…
      </Typography>
    );
  if (diagnosis.findings.length === 0)
    return (
      <Typography
        variant="body2"
        color="textSecondary"
        data-testid="diagnosis-none"
      >
        Nothing is wrong: the operator and every member report healthy.
      </Typography>
    );
  return (
    <Box
      display="flex"
      flexDirection="column"
      style={{ gap: 12 }}
      aria-label="Findings"
    >
      {diagnosis.findings.map((f, i) => (
        <Alert
          key={`${f.reason}-${i}`}
          severity={SEVERITY[f.severity] ?? 'info'}
          data-testid="diagnosis-finding"
        >
          <AlertTitle>{f.reason}</AlertTitle>
          <Typography variant="body2">{f.message}</Typography>
          <Box mt={1}>
            <Typography variant="body2">
              <strong>What to do:</strong> {f.hint}
            </Typography>
          </Box>
          {f.objects.length > 0 && (
            <Box mt={1}>
              <Typography variant="caption" style={{ fontFamily: 'monospace' }}>
                {f.objects.map(o => `${o.kind}/${o.name}`).join(', ')}
              </Typography>
            </Box>
          )}
        </Alert>
      ))}
    </Box>
  );
}
