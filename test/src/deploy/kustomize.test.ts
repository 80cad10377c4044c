import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  grants,
  identities,
  KNOWN_KINDS,
  parseManifests,
  theObject,
  type K8sObject,
} from './support/manifests';
import { helmTemplate, kustomize, kustomizeDir, runOk } from './support/tools';

jest.setTimeout(60_000);

/** Helm's own bookkeeping labels: the only labels the kustomize objects do not carry. */
const HELM_ONLY_LABELS = [
  'helm.sh/chart',
  'app.kubernetes.io/managed-by',
  'app.kubernetes.io/version',
];

let base: K8sObject[];
let example: K8sObject[];
let helmCertManager: K8sObject[];

beforeAll(() => {
  base = parseManifests(kustomize(path.join(kustomizeDir, 'base')));
  example = parseManifests(
    kustomize(path.join(kustomizeDir, 'overlays/example')),
  );
  // Release "dbaas" in dbaas-system is what the kustomize base spells out.
  helmCertManager = parseManifests(
    helmTemplate(['--set', 'certManager.enabled=true']),
  );
});

describe('kustomize base', () => {
  it('renders the same kinds as the chart, plus its Namespace', () => {
    const helmKinds = new Set(parseManifests(helmTemplate()).map(o => o.kind));
    helmKinds.delete('Secret'); // the chart-generated certificate; the base leaves certificates to a component
    expect([...new Set(base.map(o => o.kind))].sort()).toEqual(
      [...helmKinds, 'Namespace'].sort(),
    );
  });

  it('uses only known apiVersion/kind pairs', () => {
    for (const o of [...base, ...example]) {
      expect(
        `${o.apiVersion} ${o.kind}: ${KNOWN_KINDS[o.apiVersion]?.includes(o.kind) ?? false}`,
      ).toBe(`${o.apiVersion} ${o.kind}: true`);
    }
  });

  it('has an APIService without a caBundle until a component supplies one', () => {
    const api = theObject(base, 'APIService', 'v1alpha1.dbaas.platform.dev');
    expect(api.spec.caBundle).toBeUndefined();
    expect(api.spec.insecureSkipTLSVerify).toBeUndefined();
    expect(api.spec.service).toEqual({
      name: 'dbaas-apiserver',
      namespace: 'dbaas-system',
      port: 443,
    });
  });
});

describe('kustomize base and Helm chart agree', () => {
  it('on the objects (kind, namespace, name) once cert-manager is added', () => {
    const withoutNamespace = example.filter(o => o.kind !== 'Namespace');
    expect(identities(withoutNamespace)).toEqual(identities(helmCertManager));
  });

  it.each(['ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding'])(
    'on every %s',
    kind => {
      for (const fromHelm of helmCertManager.filter(o => o.kind === kind)) {
        const fromBase = theObject(base, kind, fromHelm.metadata.name);
        expect({
          name: fromHelm.metadata.name,
          rules: grants(fromBase),
        }).toEqual({
          name: fromHelm.metadata.name,
          rules: grants(fromHelm),
        });
        expect(fromBase.roleRef).toEqual(fromHelm.roleRef);
        expect(fromBase.subjects).toEqual(fromHelm.subjects);
        const aggregation = (o: K8sObject) =>
          Object.entries(o.metadata.labels ?? {}).filter(([k]) =>
            k.startsWith('rbac.authorization.k8s.io/'),
          );
        expect(aggregation(fromBase)).toEqual(aggregation(fromHelm));
      }
    },
  );

  it.each(['Service', 'PodDisruptionBudget', 'APIService'])(
    'on the %s spec',
    kind => {
      expect(theObject(example, kind).spec).toEqual(
        theObject(helmCertManager, kind).spec,
      );
    },
  );

  it('on the Deployment, apart from what the example overlay changes on purpose', () => {
    const fromHelm = theObject(helmCertManager, 'Deployment');
    const fromBase = theObject(base, 'Deployment');
    const strip = (d: K8sObject) => {
      const spec = structuredClone(d.spec);
      delete spec.template.metadata.annotations; // Helm's checksum of the certificate
      for (const label of HELM_ONLY_LABELS)
        delete spec.template.metadata.labels[label];
      delete spec.template.metadata.labels['app.kubernetes.io/part-of'];
      delete spec.template.spec.containers[0].image; // tag from the chart's appVersion vs. pinned
      return spec;
    };
    expect(strip(fromBase)).toEqual(strip(fromHelm));
  });

  it('on the cert-manager objects and the inject-ca-from annotation', () => {
    for (const kind of ['Issuer', 'Certificate']) {
      for (const fromHelm of helmCertManager.filter(o => o.kind === kind)) {
        expect(theObject(example, kind, fromHelm.metadata.name).spec).toEqual(
          fromHelm.spec,
        );
      }
    }
    const annotation = 'cert-manager.io/inject-ca-from';
    expect(
      theObject(example, 'APIService').metadata.annotations?.[annotation],
    ).toBe(
      theObject(helmCertManager, 'APIService').metadata.annotations?.[
        annotation
      ],
    );
  });
});

describe('example overlay', () => {
  it('changes image, replicas and resources and keeps the kube-system RoleBinding in kube-system', () => {
    const deployment = theObject(example, 'Deployment');
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.containers[0].image).toBe(
      'registry.example.com/platform/dbaas-apiserver:0.1.0',
    );
    expect(
      deployment.spec.template.spec.containers[0].resources.limits.memory,
    ).toBe('1Gi');
    // The strategic merge patch must not have dropped the probes or the security context.
    expect(
      deployment.spec.template.spec.containers[0].readinessProbe.httpGet.path,
    ).toBe('/readyz');
    expect(
      deployment.spec.template.spec.containers[0].securityContext
        .readOnlyRootFilesystem,
    ).toBe(true);
    const reader = example.find(
      o =>
        o.kind === 'RoleBinding' &&
        o.roleRef.name === 'extension-apiserver-authentication-reader',
    )!;
    expect(reader.metadata.namespace).toBe('kube-system');
  });
});

describe('static-cert overlay with create-serving-cert.sh', () => {
  let work: string;
  let rendered: K8sObject[];

  beforeAll(() => {
    // Work on a copy: the script writes certificates beside the component, never into the repository.
    work = mkdtempSync(path.join(os.tmpdir(), 'dbaas-kustomize-'));
    cpSync(kustomizeDir, work, { recursive: true });
    runOk('bash', [path.join(work, 'create-serving-cert.sh')]);
    rendered = parseManifests(
      kustomize(path.join(work, 'overlays/static-cert')),
    );
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('mounts the generated Secret and puts its CA in the APIService caBundle', () => {
    const secret = theObject(rendered, 'Secret');
    const volumes = theObject(rendered, 'Deployment').spec.template.spec
      .volumes;
    expect(volumes.map((v: any) => v.secret?.secretName)).toContain(
      secret.metadata.name,
    );
    const caBundle = theObject(rendered, 'APIService').spec.caBundle;
    expect(Buffer.from(caBundle, 'base64').toString()).toBe(
      Buffer.from(secret.data['ca.crt'], 'base64').toString(),
    );
  });

  it('made a certificate for dbaas-apiserver.dbaas-system.svc signed by that CA', () => {
    const secret = theObject(rendered, 'Secret');
    const pem = (k: string) => Buffer.from(secret.data[k], 'base64').toString();
    const ca = new X509Certificate(pem('ca.crt'));
    const cert = new X509Certificate(pem('tls.crt'));
    expect(ca.ca).toBe(true);
    expect(cert.subjectAltName?.split(', ')).toContain(
      'DNS:dbaas-apiserver.dbaas-system.svc',
    );
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(pem('tls.key')))).toBe(true);
  });
});
