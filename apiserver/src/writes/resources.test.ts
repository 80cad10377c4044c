import { describe, it, expect } from '@jest/globals';
import { mergeResources } from './resources';

describe('mergeResources', () => {
  it('replaces cpu and memory and keeps other resources', () => {
    expect(
      mergeResources(
        {
          requests: { cpu: '1', 'ephemeral-storage': '1Gi' },
          limits: { memory: '1Gi' },
          claims: [{ name: 'gpu' }],
        },
        { requests: { memory: '2Gi' } },
      ),
    ).toEqual({
      requests: { 'ephemeral-storage': '1Gi', memory: '2Gi' },
      claims: [{ name: 'gpu' }],
    });
  });

  it('drops what becomes empty', () => {
    expect(mergeResources({ limits: { cpu: '1' } }, undefined)).toBeUndefined();
  });
});
