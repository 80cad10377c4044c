import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import orgPlugin from '@backstage/plugin-org/alpha';
import userSettingsPlugin from '@backstage/plugin-user-settings/alpha';
import databasesPlugin from '@internal/plugin-databases/alpha';

/**
 * The portal: catalog, org, settings and databases on the new frontend system. Features are
 * listed here rather than discovered (`app.packages: all`) so the app is the same whatever the
 * config says; the default app plugin supplies the guest sign-in page and a sidebar built from
 * the pages' titles and icons ("Databases" among them).
 */
const app = createApp({
  features: [catalogPlugin, orgPlugin, userSettingsPlugin, databasesPlugin],
});

export default app;
