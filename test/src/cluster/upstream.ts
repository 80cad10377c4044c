import path from 'node:path';
import { readYamlDocuments } from '@internal/kube-emulator/src/yaml/readYamlDocuments';

/** The operators' upstream CRDs, samples and statuses (`../shared/operators` beside the repo). */
export const OPERATORS_DIR = path.resolve(
  __dirname,
  '../../../../shared/operators',
);

/** A Kubernetes object as read from YAML. */
export type Manifest = Record<string, any>;

/** Every non-empty document of an upstream YAML file (comments and `---` lines are YAML too). */
export function readManifests(relativeFile: string): Manifest[] {
  return readYamlDocuments(path.join(OPERATORS_DIR, relativeFile)).filter(
    (m): m is Manifest => typeof m === 'object',
  );
}

/** The one document of an upstream file; an upstream file with more is a wrong pick here. */
export function readManifest(relativeFile: string): Manifest {
  const docs = readManifests(relativeFile);
  if (docs.length !== 1)
    throw new Error(
      `${relativeFile}: expected one document, found ${docs.length}`,
    );
  return docs[0];
}

/**
 * An upstream sample as the suite creates it: in the test namespace, with a label that the
 * selector checks use. Upstream fields are kept as they are (the CRD schema must accept them).
 */
export function sampleIn(
  sample: Manifest,
  namespace: string,
  labels: Record<string, string>,
): Manifest {
  const { status: _ignored, ...rest } = sample;
  return {
    ...rest,
    metadata: {
      name: sample.metadata.name,
      namespace,
      labels: { ...(sample.metadata.labels ?? {}), ...labels },
    },
  };
}
