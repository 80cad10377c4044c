import { createBackend } from '@backstage/backend-defaults';
import { catalogModuleDatabases } from '@internal/plugin-databases-backend';
import { permissionModuleTeamsPolicy } from './permissionPolicy';

const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(catalogModuleDatabases);
backend.add(import('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'));
backend.add(import('@backstage/plugin-permission-backend'));
backend.add(permissionModuleTeamsPolicy);
backend.add(import('@internal/plugin-databases-backend'));
backend.add(import('@backstage/plugin-scaffolder-backend'));
backend.add(import('@internal/plugin-scaffolder-backend-module-databases'));

backend.start();
