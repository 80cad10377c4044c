import { coreServices, createServiceFactory, type AuthService } from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';

const SERVICE_TOKEN_PREFIX = 'mock-service-token:';

/**
 * Backstage's mock auth service, except that a plugin's token on behalf of a user authenticates
 * as that user with the plugin as actor, as the real auth service does (the mock drops the
 * actor). The permission backend refuses a resource permission without a resourceRef from a
 * user with no actor (a direct request from a browser): the catalog's reads as a user need it.
 * Use it with the real `httpAuthServiceFactory` (the mock HTTP auth has its own auth inside).
 */
export const oboActorAuthFactory = createServiceFactory({
  service: coreServices.auth,
  deps: { plugin: coreServices.pluginMetadata },
  factory({ plugin }): AuthService {
    const mock = mockServices.auth({ pluginId: plugin.getId() });
    const authenticate: AuthService['authenticate'] = async (token, options) => {
      const credentials = await mock.authenticate(token, options);
      if (token.startsWith(SERVICE_TOKEN_PREFIX) && mock.isPrincipal(credentials, 'user')) {
        const { sub } = JSON.parse(token.slice(SERVICE_TOKEN_PREFIX.length)) as { sub: string };
        return mockCredentials.user(credentials.principal.userEntityRef, { actor: { subject: sub } });
      }
      return credentials;
    };
    return Object.assign(Object.create(mock), { authenticate }) as AuthService;
  },
});
