import { bindingType, type DatabaseInstance } from '@internal/plugin-databases-common';

/** One way to connect an application, as text to copy. */
export interface ConnectSnippet {
  id: 'env' | 'wordpress' | 'uri' | 'servicebinding';
  title: string;
  language: 'yaml' | 'bash';
  text: string;
  /** What the reader must know to use it. */
  note?: string;
}

/** JDBC drivers per binding type (MariaDB's is `mysql`, as MySQL's). */
const JDBC_SCHEMES: Record<string, string> = { mysql: 'mysql', postgresql: 'postgresql' };

/** The environment variables an application reads, each from an entry of the binding Secret. */
function envSnippet(secret: string, entries: string[], optional: string[]): string {
  const names: Record<string, string> = {
    host: 'DB_HOST',
    port: 'DB_PORT',
    username: 'DB_USER',
    password: 'DB_PASSWORD',
    database: 'DB_NAME',
    uri: 'DATABASE_URL',
  };
  const lines = entries
    .filter(e => names[e])
    .flatMap(e => [
      `- name: ${names[e]}`,
      '  valueFrom:',
      '    secretKeyRef:',
      `      name: ${secret}`,
      `      key: ${e}`,
      ...(optional.includes(e) ? ['      optional: true'] : []),
    ]);
  return ['# in the Deployment\'s container spec', 'env:', ...lines].join('\n');
}

/**
 * The ways to connect an application to `instance` through its binding Secret
 * (`status.binding.name`): none carries a credential, each reads it from the Secret, so a
 * password rotation reaches the application on its next start. Empty without a binding.
 */
export function connectSnippets(instance: DatabaseInstance): ConnectSnippet[] {
  const secret = instance.status?.binding?.name;
  if (!secret) return [];
  const { namespace = 'default', name = '' } = instance.metadata;
  const engine = instance.spec.engine;
  const primary = instance.status?.endpoints?.[0];
  const hasUsers = engine !== 'redis';
  const entries = ['host', 'port', ...(hasUsers ? ['username'] : []), 'password', ...(engine === 'postgresql' ? ['database'] : []), 'uri'];
  const snippets: ConnectSnippet[] = [
    {
      id: 'env',
      title: 'Deployment env',
      language: 'yaml',
      // a Redis without auth has no password entry
      text: envSnippet(secret, entries, engine === 'redis' ? ['password'] : []),
      note: `Or every entry at once: envFrom: [{secretRef: {name: ${secret}}}]`,
    },
  ];
  // the MySQL protocol's (MariaDB and MySQL): WordPress speaks it
  if (bindingType(engine) === 'mysql') {
    snippets.push({
      id: 'wordpress',
      title: 'WordPress (Helm)',
      language: 'yaml',
      text: [
        `# helm install blog oci://registry-1.docker.io/bitnamicharts/wordpress -n ${namespace} -f values.yaml`,
        'mariadb:',
        '  enabled: false',
        'externalDatabase:',
        `  host: ${primary?.host ?? `${name}.${namespace}.svc`}`,
        `  port: ${primary?.port ?? 3306}`,
        '  user: <the username entry of the Secret>',
        '  database: wordpress',
        `  existingSecret: ${secret}`,
      ].join('\n'),
      note: `The chart reads the password from the Secret's mariadb-password entry: the binding Secret of a MariaDB or MySQL has it, and follows rotations. Create the wordpress database first (or name one that exists).`,
    });
  }
  const scheme = JDBC_SCHEMES[bindingType(engine)];
  snippets.push({
    id: 'uri',
    title: scheme ? 'JDBC / URI' : 'URI',
    language: 'bash',
    text: [
      '# the URI, with the credentials, from the Secret',
      `kubectl get secret ${secret} -n ${namespace} -o jsonpath='{.data.uri}' | base64 -d`,
      ...(scheme && primary ? ['', '# JDBC (user and password from the Secret\'s username and password)', `jdbc:${scheme}://${primary.host}:${primary.port}/<database>`] : []),
    ].join('\n'),
  });
  snippets.push({
    id: 'servicebinding',
    title: 'ServiceBinding',
    language: 'yaml',
    text: [
      '# for clusters that run a Service Binding runtime (servicebinding.io)',
      'apiVersion: servicebinding.io/v1',
      'kind: ServiceBinding',
      'metadata:',
      `  name: ${name}`,
      `  namespace: ${namespace}`,
      'spec:',
      '  service:',
      '    apiVersion: dbaas.platform.dev/v1alpha1',
      '    kind: DatabaseInstance',
      `    name: ${name}`,
      '  workload:',
      '    apiVersion: apps/v1',
      '    kind: Deployment',
      '    name: <your-app>',
    ].join('\n'),
  });
  return snippets;
}
