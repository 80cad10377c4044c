import {
  Content,
  ContentHeader,
  Link,
  LinkButton,
  Progress,
  SupportButton,
} from '@backstage/core-components';
import {
  DATABASE_PHASES,
  ListInstancesQuery,
  ListInstancesResponse,
  PortalInstance,
} from '@internal/plugin-databases-common';
import { useApi } from '@backstage/core-plugin-api';
import {
  Box,
  Button,
  FormControl,
  InputAdornment,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  TextField,
  Typography,
} from '@material-ui/core';
import { Alert } from '@material-ui/lab';
import SearchIcon from '@material-ui/icons/Search';
import AddIcon from '@material-ui/icons/Add';
import { makeStyles } from '@material-ui/core/styles';
import { useCallback, useEffect, useRef, useState } from 'react';
import { databasesApiRef } from '../../api/types';
import { instancePath } from '../../lib/databasesPath';
import { formatAge, formatReplicas, ownerOf, sameInstance } from '../../lib/format';
import { useBasePath } from '../../hooks/useBasePath';
import { useDatabasesEvents, useDebounced } from '../../hooks/useDatabasesEvents';
import { ErrorExplanation } from '../ErrorExplanation';
import { LastBackup } from './LastBackup';
import { OwnerLink } from '../OwnerLink';
import { PhaseChip } from '../PhaseChip';
import { PhaseSummary } from '../PhaseSummary';

const PAGE_SIZE = 25;

const useStyles = makeStyles(theme => ({
  filters: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: theme.spacing(2),
    alignItems: 'flex-end',
    padding: theme.spacing(2),
  },
  select: { minWidth: 140 },
  search: { minWidth: 240, flexGrow: 1 },
}));

type Filters = Pick<ListInstancesQuery, 'cluster' | 'namespace' | 'engine' | 'phase' | 'owner' | 'q'>;

const COLUMNS: Array<{ key: string; label: string; sortable: boolean }> = [
  { key: 'name', label: 'Name', sortable: true },
  { key: 'phase', label: 'Phase', sortable: true },
  { key: 'engine', label: 'Engine', sortable: true },
  { key: 'version', label: 'Version', sortable: false },
  { key: 'ready', label: 'Ready', sortable: false },
  { key: 'namespace', label: 'Namespace', sortable: true },
  { key: 'cluster', label: 'Cluster', sortable: true },
  { key: 'owner', label: 'Owner', sortable: true },
  { key: 'backup', label: 'Last backup', sortable: false },
  { key: 'age', label: 'Age', sortable: true },
];

function FilterSelect(props: {
  label: string;
  value?: string;
  options: readonly string[];
  onChange: (value: string | undefined) => void;
}) {
  const classes = useStyles();
  const id = `filter-${props.label.toLowerCase()}`;
  return (
    <FormControl className={classes.select} size="small">
      <InputLabel id={`${id}-label`}>{props.label}</InputLabel>
      <Select
        labelId={`${id}-label`}
        id={id}
        value={props.value ?? ''}
        onChange={e => props.onChange((e.target.value as string) || undefined)}
        data-testid={id}
      >
        <MenuItem value="">All</MenuItem>
        {props.options.map(o => (
          <MenuItem key={o} value={o}>
            {o}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** Every instance the user may see across clusters, filtered, searched and sorted by the backend. */
export function DatabasesListView() {
  const api = useApi(databasesApiRef);
  const basePath = useBasePath();
  const classes = useStyles();
  const [filters, setFilters] = useState<Filters>({});
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState('name');
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [data, setData] = useState<ListInstancesResponse>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [clusters, setClusters] = useState<string[]>([]);
  // Options grow with what has been seen, so narrowing one filter does not empty the others.
  const seen = useRef({ namespaces: new Set<string>(), owners: new Set<string>(), engines: new Set<string>() });

  const cursor = cursors[cursors.length - 1];
  const query: ListInstancesQuery = { ...filters, sort, limit: PAGE_SIZE, cursor };
  const queryKey = JSON.stringify(query);

  const load = useCallback(async () => {
    try {
      const response = await api.listInstances(JSON.parse(queryKey));
      for (const engine of Object.keys(response.counts?.byEngine ?? {})) seen.current.engines.add(engine);
      for (const item of response.items) {
        if (item.instance.metadata.namespace) seen.current.namespaces.add(item.instance.metadata.namespace);
        if (item.instance.spec.engine) seen.current.engines.add(item.instance.spec.engine);
        const owner = ownerOf(item.instance);
        if (owner) seen.current.owners.add(owner);
      }
      setData(response);
      setError(undefined);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  }, [api, queryKey]);

  useEffect(() => {
    setLoading(true);
    load();
  }, [load]);

  useEffect(() => {
    api.listClusters().then(
      list => setClusters(list.map(c => c.name)),
      () => undefined, // the list itself reports unreachable clusters
    );
  }, [api]);

  // Debounced search: the backend searches, one request per pause in typing.
  const applySearch = useDebounced(() => {
    setCursors([undefined]);
    setFilters(f => ({ ...f, q: search || undefined }));
  }, 300);

  const refetch = useDebounced(load, 500);
  const { disconnected } = useDatabasesEvents({
    onOpen: refetch,
    onInstance: event => {
      // Show the new phase at once, then let the backend re-sort and re-count.
      setData(current =>
        current && {
          ...current,
          items: current.items.map(item =>
            sameInstance(item, event) ? { cluster: event.cluster, instance: event.instance } : item,
          ),
        },
      );
      refetch();
    },
  });

  const setFilter = (key: keyof Filters) => (value: string | undefined) => {
    setCursors([undefined]);
    setFilters(f => ({ ...f, [key]: value }));
  };

  const toggleSort = (key: string) => {
    setCursors([undefined]);
    setSort(s => (s === key ? `-${key}` : key));
  };

  return (
    <Content>
      <ContentHeader title="Databases">
        <LinkButton variant="contained" color="primary" startIcon={<AddIcon />} to={`${basePath}/request`}>
          Request a database
        </LinkButton>
        <SupportButton>
          Every database you may see, in every cluster. Request one for your team; it goes from
          Pending to Ready in about a minute.
        </SupportButton>
      </ContentHeader>
      {disconnected && (
        <Box mb={2}>
          <Alert severity="info">Live updates paused; reconnecting…</Alert>
        </Box>
      )}
      {data?.errors.map(e => (
        <Box mb={2} key={e.cluster}>
          <Alert severity="warning" data-testid="cluster-error">
            Cluster <strong>{e.cluster}</strong> did not answer ({e.errorType}): {e.message}. Its
            databases are missing below.
          </Alert>
        </Box>
      ))}
      {data && (
        <Box mb={3}>
          <PhaseSummary counts={data.counts} total={data.totalItems} onPhaseClick={setFilter('phase')} />
        </Box>
      )}
      <Paper>
        <div className={classes.filters}>
          <TextField
            className={classes.search}
            size="small"
            label="Search"
            placeholder="name, namespace, engine, owner"
            value={search}
            onChange={e => {
              setSearch(e.target.value);
              applySearch();
            }}
            InputProps={{
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            }}
            inputProps={{ 'aria-label': 'Search databases' }}
          />
          <FilterSelect label="Cluster" value={filters.cluster} options={clusters} onChange={setFilter('cluster')} />
          <FilterSelect
            label="Namespace"
            value={filters.namespace}
            options={[...seen.current.namespaces].sort()}
            onChange={setFilter('namespace')}
          />
          <FilterSelect label="Engine" value={filters.engine} options={[...seen.current.engines].sort()} onChange={setFilter('engine')} />
          <FilterSelect label="Phase" value={filters.phase} options={DATABASE_PHASES} onChange={setFilter('phase')} />
          <FilterSelect
            label="Owner"
            value={filters.owner}
            options={[...seen.current.owners].sort()}
            onChange={setFilter('owner')}
          />
        </div>
        {loading && <Progress />}
        {error !== undefined && (
          <Box p={2}>
            <ErrorExplanation error={error} doing="list databases" onRetry={load} />
          </Box>
        )}
        <TableContainer>
          <Table size="small" aria-label="Databases">
            <TableHead>
              <TableRow>
                {COLUMNS.map(c => (
                  <TableCell key={c.key}>
                    {c.sortable ? (
                      <TableSortLabel
                        active={sort.replace(/^-/, '') === c.key}
                        direction={sort === `-${c.key}` ? 'desc' : 'asc'}
                        onClick={() => toggleSort(c.key)}
                      >
                        {c.label}
                      </TableSortLabel>
                    ) : (
                      c.label
                    )}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data?.items.map((item: PortalInstance) => {
                const { metadata, spec, status } = item.instance;
                const owner = ownerOf(item.instance);
                return (
                  <TableRow key={`${item.cluster}/${metadata.namespace}/${metadata.name}`} hover>
                    <TableCell>
                      <Link
                        to={instancePath(basePath, {
                          cluster: item.cluster,
                          namespace: metadata.namespace ?? '',
                          name: metadata.name ?? '',
                        })}
                      >
                        {metadata.name}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <PhaseChip phase={status?.phase} reason={status?.reason} />
                    </TableCell>
                    <TableCell>
                      {spec.engine}
                      {spec.topology ? ` · ${spec.topology}` : ''}
                    </TableCell>
                    <TableCell>{status?.version ?? spec.version}</TableCell>
                    <TableCell>{formatReplicas(item.instance)}</TableCell>
                    <TableCell>{metadata.namespace}</TableCell>
                    <TableCell>{item.cluster}</TableCell>
                    <TableCell>{owner ? <OwnerLink entityRef={owner} /> : ''}</TableCell>
                    <TableCell>
                      <LastBackup instance={item.instance} />
                    </TableCell>
                    <TableCell>{formatAge(metadata.creationTimestamp)}</TableCell>
                  </TableRow>
                );
              })}
              {data && data.items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>
                    <Box p={3} textAlign="center">
                      <Typography variant="body1">No databases match.</Typography>
                      <Typography variant="body2" color="textSecondary">
                        Clear the filters, or request a new database.
                      </Typography>
                    </Box>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Box display="flex" justifyContent="flex-end" alignItems="center" p={1} style={{ gap: 8 }}>
          <Typography variant="body2" color="textSecondary">
            {data ? `${data.items.length} of ${data.totalItems}` : ''}
          </Typography>
          <Button size="small" disabled={cursors.length <= 1} onClick={() => setCursors(c => c.slice(0, -1))}>
            Previous
          </Button>
          <Button
            size="small"
            disabled={!data?.nextCursor}
            onClick={() => setCursors(c => [...c, data?.nextCursor])}
          >
            Next
          </Button>
        </Box>
      </Paper>
    </Content>
  );
}
