import { describe, expect, it } from 'vitest';
import { optionStrengthBand, optionStrengthScore } from './strength';

const inputs = (spike: string, volumeSwing: string, swing: string, rsi: string) => ({ VolumeSpikeCheck: spike, VolumeSwingCheck: volumeSwing, SwingCheck: swing, RSIStatus: rsi });

describe('option strength score (spec §5, §9)', () => {
  it('weights 50, 25, 15, 10, capped at 100', () => {
    expect(optionStrengthScore(inputs('0', '0', '0', 'neutral'))).toBe(0);
    expect(optionStrengthScore(inputs('1', '0', '0', 'neutral'))).toBe(50);
    expect(optionStrengthScore(inputs('0', '1', '0', 'neutral'))).toBe(25);
    expect(optionStrengthScore(inputs('0', '0', '1', 'neutral'))).toBe(15);
    expect(optionStrengthScore(inputs('0', '0', '0', 'oversold'))).toBe(10);
    expect(optionStrengthScore(inputs('1', '1', '1', 'oversold'))).toBe(100);
    expect(optionStrengthScore(inputs('1', '1', '1', 'overbought'))).toBe(90);
    // '1' means true; anything else is false; 'contains oversold' is a substring test.
    expect(optionStrengthScore(inputs('true', '0', '0', 'RSI oversold'))).toBe(10);
  });
  it('bands: red below 30, yellow 30 to 69, green 70 and above', () => {
    expect(optionStrengthBand(29)).toEqual({ band: 'low', colour: 'red' });
    expect(optionStrengthBand(30)).toEqual({ band: 'medium', colour: 'yellow' });
    expect(optionStrengthBand(69)).toEqual({ band: 'medium', colour: 'yellow' });
    expect(optionStrengthBand(70)).toEqual({ band: 'high', colour: 'green' });
    expect(optionStrengthBand(0).colour).toBe('red');
  });
});
