import { describe, expect, it } from '@jest/globals';
import { retentionText } from './retentionText';

describe('retentionText', () => {
  it('shows whole days beside the operator\'s hours, and anything else as it is', () => {
    expect(retentionText('336h')).toBe('336h (14d)');
    expect(retentionText('720h0m0s')).toBe('720h0m0s (30d)');
    expect(retentionText('36h')).toBe('36h');
    expect(retentionText('30d')).toBe('30d');
    expect(retentionText('0h')).toBe('0h');
    expect(retentionText(undefined)).toBe('default');
  });
});
