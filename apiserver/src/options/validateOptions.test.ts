import { describe, expect, it } from '@jest/globals';
import { defaultOptions } from './Options';
import { envName, parseOptions } from './parseOptions';
import { validateOptions } from './validateOptions';

describe('parseOptions', () => {
  it('reads both flag forms, lists and bare booleans', () => {
    const { options, errors } = parseOptions([
      '--secure-port=9443',
      '--kubeconfig',
      '/tmp/kc',
      '--requestheader-allowed-names=front-proxy-client, aggregator',
      '--disable-token-review',
      '--authentication-skip-lookup=false',
    ]);
    expect(errors).toEqual([]);
    expect(options).toMatchObject({
      securePort: 9443,
      kubeconfig: '/tmp/kc',
      requestheader: { allowedNames: ['front-proxy-client', 'aggregator'] },
      disableTokenReview: true,
      authenticationSkipLookup: false,
    });
  });

  it('falls back to the environment, flags win', () => {
    const env = {
      [envName('secure-port')]: '7443',
      [envName('watch-history-seconds')]: '900',
    };
    const { options } = parseOptions(['--secure-port=8444'], env);
    expect(options.securePort).toBe(8444);
    expect(options.watchHistorySeconds).toBe(900);
    expect(envName('secure-port')).toBe('DBAAS_APISERVER_SECURE_PORT');
  });

  it('an empty allowed-names flag means any CN', () => {
    expect(
      parseOptions(['--requestheader-allowed-names=']).options.requestheader
        .allowedNames,
    ).toEqual([]);
  });

  it.each([
    [['--secure-port=abc'], '--secure-port'],
    [['--no-such-flag=1'], '--no-such-flag'],
    [['--kubeconfig'], '--kubeconfig'],
    [['--disable-token-review=maybe'], '--disable-token-review'],
    [['stray'], 'stray'],
  ])('%j is reported naming %s', (argv, flag) => {
    const { errors } = parseOptions(argv as string[]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(flag as string);
  });
});

describe('validateOptions', () => {
  const withTls = () => ({
    ...defaultOptions(),
    tlsCertFile: '/c.pem',
    tlsKeyFile: '/k.pem',
  });

  it('accepts the defaults plus a serving certificate', () => {
    expect(validateOptions(withTls())).toEqual([]);
  });

  it('requires a serving certificate', () => {
    const problems = validateOptions(defaultOptions());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('--tls-cert-file');
  });

  it.each([
    [{ securePort: 70000 }, '--secure-port'],
    [{ watchHistorySeconds: 60 }, '--watch-history-seconds'],
    [{ watchHistorySize: 10 }, '--watch-history-size'],
    [
      { authenticationConfigRefreshSeconds: 120 },
      '--authentication-config-refresh-seconds',
    ],
    [
      { authorizationCacheTtlSeconds: -1 },
      '--authorization-webhook-cache-ttl-seconds',
    ],
    [{ tlsKeyFile: undefined }, '--tls-private-key-file'],
    [{ tlsCertFile: undefined }, '--tls-cert-file'],
    [{ bindAddress: '' }, '--bind-address'],
    [{ authenticationSkipLookup: true }, '--authentication-skip-lookup'],
    [{ maxRequestsInflight: -1 }, '--max-requests-inflight'],
    [{ maxMutatingRequestsInflight: 1.5 }, '--max-mutating-requests-inflight'],
    [{ readHeaderTimeoutSeconds: -1 }, '--read-header-timeout-seconds'],
    [{ readHeaderTimeoutSeconds: 61 }, '--read-header-timeout-seconds'],
    [{ readTimeoutSeconds: 3601 }, '--read-timeout-seconds'],
    [{ tlsHandshakeTimeoutSeconds: -5 }, '--tls-handshake-timeout-seconds'],
  ])('%j is refused naming %s', (change, flag) => {
    const problems = validateOptions({
      ...withTls(),
      ...(change as object),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(flag as string)).toBe(true);
  });

  it('reports every problem at once', () => {
    expect(
      validateOptions({
        ...withTls(),
        securePort: -1,
        watchHistorySeconds: 1,
      }),
    ).toHaveLength(2);
  });
});

describe('limits of requests in flight and of slow clients', () => {
  it('default to kube-apiserver\'s: 400 reads, 200 writes, headers in 32 s, the request in 60 s, the handshake in 32 s', () => {
    expect(parseOptions([]).options).toMatchObject({
      maxRequestsInflight: 400,
      maxMutatingRequestsInflight: 200,
      readHeaderTimeoutSeconds: 32,
      readTimeoutSeconds: 60,
      tlsHandshakeTimeoutSeconds: 32,
    });
  });

  it('are read from flags and the environment; 0 (no limit, unbounded) is valid', () => {
    const { options, errors } = parseOptions(
      ['--max-requests-inflight=0', '--max-mutating-requests-inflight', '5', '--read-header-timeout-seconds=0', '--read-timeout-seconds=0'],
      { [envName('tls-handshake-timeout-seconds')]: '3' },
    );
    expect(errors).toEqual([]);
    expect(options).toMatchObject({
      maxRequestsInflight: 0,
      maxMutatingRequestsInflight: 5,
      readHeaderTimeoutSeconds: 0,
      readTimeoutSeconds: 0,
      tlsHandshakeTimeoutSeconds: 3,
    });
    expect(validateOptions({ ...options, tlsCertFile: '/c.pem', tlsKeyFile: '/k.pem' })).toEqual([]);
  });

  it('take a header bound longer than the request bound only when the request is unbounded', () => {
    const base = { ...defaultOptions(), tlsCertFile: '/c.pem', tlsKeyFile: '/k.pem' };
    expect(validateOptions({ ...base, readHeaderTimeoutSeconds: 90, readTimeoutSeconds: 0 })).toEqual([]);
    expect(validateOptions({ ...base, readHeaderTimeoutSeconds: 30, readTimeoutSeconds: 30 })).toEqual([]);
  });
});

describe('--engine-config', () => {
  const files: Record<string, string> = {
    '/etc/dbaas/good.yaml': 'engines: { mariadb: { versions: ["11.4"] } }\n',
    '/etc/dbaas/bad.yaml': 'engines: { mysql: { versions: ["5.7.44"] } }\n',
  };
  const readFile = (file: string) => {
    if (!(file in files)) throw new Error(`ENOENT: no such file or directory, open '${file}'`);
    return files[file];
  };
  const check = (argv: string[]) => {
    const { options, errors } = parseOptions([
      '--tls-cert-file=/c.pem',
      '--tls-private-key-file=/k.pem',
      ...argv,
    ]);
    return [...errors, ...validateOptions(options, { readFile })];
  };

  it('is a file, read from the flag or DBAAS_APISERVER_ENGINE_CONFIG', () => {
    expect(parseOptions(['--engine-config', '/etc/dbaas/good.yaml']).options.engineConfig).toBe('/etc/dbaas/good.yaml');
    expect(parseOptions([], { DBAAS_APISERVER_ENGINE_CONFIG: '/e.yaml' }).options.engineConfig).toBe('/e.yaml');
    expect(check(['--engine-config=/etc/dbaas/good.yaml'])).toEqual([]);
  });

  it('refuses content the operator cannot run, naming the flag, the file and the key', () => {
    expect(check(['--engine-config=/etc/dbaas/bad.yaml'])).toEqual([
      expect.stringMatching(
        /^--engine-config: \/etc\/dbaas\/bad\.yaml: engines\.mysql\.versions\[0\]: "5\.7\.44" is older than 8\.0\.27/,
      ),
    ]);
  });

  it.each([
    ['a missing file', '--engine-config=/etc/dbaas/none.yaml', '--engine-config: /etc/dbaas/none.yaml: cannot be read: ENOENT'],
    ['an empty value', '--engine-config=', '--engine-config: must name a file'],
  ])('refuses %s', (_name, flag, message) => {
    expect(check([flag])).toEqual([expect.stringContaining(message)]);
  });
});
