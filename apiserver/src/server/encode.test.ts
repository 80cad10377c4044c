import { describe, expect, it } from '@jest/globals';
import { encodeObjectBytes, encodePartialObjectMetadataBytes, encodePartialObjectMetadataPieces, joinEncoded, toPartialObjectMetadata } from './encode';

const instance = (annotations: Record<string, string>) => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'orders', namespace: 'team-a', resourceVersion: '5', labels: { app: 'ünïcode' }, annotations },
  spec: { engine: 'postgresql', note: { metadata: { name: 'not this one' } } },
});

describe('PartialObjectMetadata encoding', () => {
  it.each([
    ['plain metadata', {}],
    ['an annotation that quotes a metadata key', { text: '{"metadata":{"name":"evil"}}', other: '"metadata":' }],
    ['multi-byte characters before and inside it', { 'x/ß': '𝄞 "metadata": 🎵' }],
  ])('is byte for byte JSON.stringify of the PartialObjectMetadata (%s)', (_what, annotations) => {
    const obj = instance(annotations);
    const expected = JSON.stringify(toPartialObjectMetadata(obj));
    expect(encodePartialObjectMetadataBytes(obj).toString()).toBe(expected);
    expect(Buffer.concat(joinEncoded('[', [encodePartialObjectMetadataPieces(obj), encodePartialObjectMetadataPieces(obj)], ']')).toString()).toBe(`[${expected},${expected}]`);
  });

  it('keeps no second copy: the metadata is a view into the object’s own encoded bytes', () => {
    const obj = instance({ a: 'b' });
    const pieces = encodePartialObjectMetadataPieces(obj);
    expect(pieces).toHaveLength(3);
    expect(pieces[1].buffer).toBe(encodeObjectBytes(obj).buffer);
    // a new resourceVersion is a new encoding
    const changed = { ...obj, metadata: { ...obj.metadata, resourceVersion: '6' } };
    expect(encodePartialObjectMetadataBytes(changed).toString()).toContain('"resourceVersion":"6"');
  });
});
