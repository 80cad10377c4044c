import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import orgPlugin from '@backstage/plugin-org/alpha';
import scaffolderPlugin from '@backstage/plugin-scaffolder/alpha';
import userSettingsPlugin from '@backstage/plugin-user-settings/alpha';
import databasesPlugin from '@internal/plugin-databases/alpha';

/**
 * The portal: catalog, org, the Scaffolder, settings and databases on the new frontend system.
 * Features are listed here rather than discovered (`app.packages: all`) so the app is the same
 * whatever the config says; the default app plugin supplies the guest sign-in page and a sidebar
 * built from the pages' titles and icons ("Create" and "Databases" among them). The Scaffolder's
 * Create page (/create) runs the Software Templates in the catalog, e.g. "New service with its
 * own database" (the backend's databases:instance:* actions), with its default form fields
 * (OwnerPicker, EntityPicker, RepoUrlPicker...).
 */
const app = createApp({
  features: [catalogPlugin, orgPlugin, scaffolderPlugin, userSettingsPlugin, databasesPlugin],
});

export default app;
