import { describe, expect, it } from 'vitest';
import { dataVersionIn, rulesOf, ruleVersionLabel, versionOnData } from './data-version';

describe('rule versions on imported prices', () => {
  it('name the data as semver build metadata, and read it back', () => {
    expect(versionOnData('swing@1.0.0', '')).toBe('swing@1.0.0');
    const version = versionOnData('swing@1.0.0', '1a2b3c4d');
    expect(version).toBe('swing@1.0.0+data.1a2b3c4d');
    expect(dataVersionIn(version)).toBe('1a2b3c4d');
    expect(dataVersionIn('swing@1.0.0')).toBe('');
    expect(rulesOf(version)).toBe('swing@1.0.0');
    expect(rulesOf('drop@1.1.0')).toBe('drop@1.1.0');
  });

  it('are labelled for the screens', () => {
    expect(ruleVersionLabel('swing@1.0.0')).toBe('swing@1.0.0');
    expect(ruleVersionLabel('swing@1.0.0+data.1a2b3c4d')).toBe('swing@1.0.0 on imported prices (data 1a2b3c4d)');
  });
});
