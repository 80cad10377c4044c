import { describe, expect, it } from '@jest/globals';
import { ANNOTATION_DELETION_PROTECTION, ANNOTATION_KUBECTL_LAST_APPLIED, ANNOTATION_LAST_APPLIED, LABEL_MANAGED_BY, LABEL_REQUESTED_BY } from '@internal/plugin-databases-common';
import { applyMetadataChanges } from './instanceMetadata';

const object = {
  metadata: {
    name: 'x',
    labels: { app: 'shop', [LABEL_REQUESTED_BY]: 'alice', [LABEL_MANAGED_BY]: 'dbaas-apiserver', 'operator.io/internal': 'keep' },
    annotations: { [ANNOTATION_DELETION_PROTECTION]: 'true', note: 'a' },
  },
  spec: { replicas: 1 },
};
const served = { labels: { app: 'shop', [LABEL_REQUESTED_BY]: 'alice' }, annotations: { note: 'a' } };
const untouched = { 'operator.io/internal': 'keep', [LABEL_REQUESTED_BY]: 'alice', [LABEL_MANAGED_BY]: 'dbaas-apiserver' };

describe('applyMetadataChanges', () => {
  it.each([
    ['adds and changes labels', { labels: { ...served.labels, app: 'pay', tier: 'db' } }, { ...untouched, app: 'pay', tier: 'db' }, object.metadata.annotations],
    ['removes a label the client removed', { labels: { [LABEL_REQUESTED_BY]: 'alice' } }, untouched, object.metadata.annotations],
    [
      'keeps who asked and who manages, whatever the client sends',
      { labels: { ...served.labels, [LABEL_REQUESTED_BY]: 'mallory', [LABEL_MANAGED_BY]: 'me' } },
      { ...untouched, app: 'shop' },
      object.metadata.annotations,
    ],
    ['leaves deletion protection to the spec', { annotations: { note: 'a', [ANNOTATION_DELETION_PROTECTION]: 'false' } }, { ...untouched, app: 'shop' }, object.metadata.annotations],
    ['removes an annotation', { annotations: {} }, { ...untouched, app: 'shop' }, { [ANNOTATION_DELETION_PROTECTION]: 'true' }],
  ])('%s', (_name, after, labels, annotations) => {
    const result = applyMetadataChanges(object, served, { ...served, ...after });
    expect(result.metadata!.labels).toEqual(labels);
    expect(result.metadata!.annotations).toEqual(annotations);
    expect(object.metadata.labels.app).toBe('shop');
  });

  it("keeps kubectl's last-applied copy of the instance under our key, and removes it when the client does", () => {
    const applied = applyMetadataChanges(object, served, { ...served, annotations: { note: 'a', [ANNOTATION_KUBECTL_LAST_APPLIED]: '{"v":1}' } });
    expect(applied.metadata!.annotations).toEqual({ ...object.metadata.annotations, [ANNOTATION_LAST_APPLIED]: '{"v":1}' });
    const servedApplied = { ...served, annotations: { note: 'a', [ANNOTATION_KUBECTL_LAST_APPLIED]: '{"v":1}' } };
    const kept = applyMetadataChanges(applied, servedApplied, { ...servedApplied, labels: { app: 'pay' } });
    expect(kept.metadata!.annotations![ANNOTATION_LAST_APPLIED]).toBe('{"v":1}');
    const removed = applyMetadataChanges(applied, servedApplied, served);
    expect(removed.metadata!.annotations).toEqual(object.metadata.annotations);
    // our key is not the client's to write
    const forged = applyMetadataChanges(object, served, { ...served, annotations: { note: 'a', [ANNOTATION_LAST_APPLIED]: 'x' } });
    expect(forged.metadata!.annotations).toEqual(object.metadata.annotations);
  });

  it('never lets a client write or remove the apiserver\'s record of the last Ready spec', () => {
    const READY_SPEC = 'dbaas.platform.dev/ready-spec';
    const recorded = { ...object, metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, [READY_SPEC]: '{"replicas":1}' } } };
    // the instance does not show it, so a client replacing the annotations cannot drop it
    expect(applyMetadataChanges(recorded, served, { ...served, annotations: {} }).metadata!.annotations).toEqual({
      [ANNOTATION_DELETION_PROTECTION]: 'true',
      [READY_SPEC]: '{"replicas":1}',
    });
    // nor claim a Ready spec of its own
    const forged = applyMetadataChanges(recorded, served, { ...served, annotations: { note: 'a', [READY_SPEC]: '{"replicas":9}' } });
    expect(forged.metadata!.annotations![READY_SPEC]).toBe('{"replicas":1}');
  });
});
