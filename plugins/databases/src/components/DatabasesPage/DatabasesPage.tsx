import { Content, Header, HeaderLabel, Link, Page } from '@backstage/core-components';
import { Typography } from '@material-ui/core';
import { useLocation } from 'react-router-dom';
import { useBasePath } from '../../hooks/useBasePath';
import { matchDatabasesPath } from '../../lib/databasesPath';
import { InstancePage } from '../InstancePage';
import { RequestDatabaseForm } from '../RequestDatabaseForm';
import { DatabasesListView } from './DatabasesListView';

/**
 * The databases page: the list, the request form (`request`) and one instance
 * (`:cluster/:namespace/:name`), below wherever the app mounted it.
 *
 * @public
 */
export function DatabasesPage() {
  const basePath = useBasePath();
  const { pathname } = useLocation();
  const match = matchDatabasesPath(pathname, basePath);
  let body;
  let subtitle = 'Every database you may see, across clusters and operators';
  if (!match) {
    body = (
      <Content>
        <Typography paragraph>There is no such page.</Typography>
        <Link to={basePath}>All databases</Link>
      </Content>
    );
  } else if (match.view === 'list') {
    body = <DatabasesListView />;
  } else if (match.view === 'request') {
    subtitle = 'Pick an engine and a size; it is ready in about a minute';
    body = <RequestDatabaseForm />;
  } else {
    subtitle = `Database in ${match.namespace} on ${match.cluster}`;
    body = <InstancePage key={pathname} instanceRef={match} />;
  }
  return (
    <Page themeId="tool">
      <Header title="Databases" subtitle={subtitle}>
        {/* the header's own label slot, in the header's colours (a plain link was black on purple) */}
        {match && match.view !== 'list' && (
          <HeaderLabel label="Back to" value="All databases" url={basePath} />
        )}
      </Header>
      {body}
    </Page>
  );
}
