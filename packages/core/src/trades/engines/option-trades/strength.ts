/**
 * The option strength score (spec §5 "Option strength score", §9 weights and bands), written once:
 * the engine stores it at entry (StrengthScore) and ranks the day's alerts by it; the web app
 * shows it on each card as x/100 in its colour band.
 */

export interface StrengthInputs {
  VolumeSpikeCheck: string;
  VolumeSwingCheck: string;
  SwingCheck: string;
  RSIStatus: string;
}

export const STRENGTH_WEIGHTS = { volumeSpike: 50, volumeSwing: 25, swing: 15, oversold: 10 } as const;
export const STRENGTH_MAX = 100;

/** 50 if VolumeSpikeCheck is '1', + 25 if VolumeSwingCheck is '1', + 15 if SwingCheck is '1', + 10 if RSIStatus contains 'oversold'; at most 100. */
export function optionStrengthScore(inputs: StrengthInputs): number {
  let score = 0;
  if (inputs.VolumeSpikeCheck === '1') score += STRENGTH_WEIGHTS.volumeSpike;
  if (inputs.VolumeSwingCheck === '1') score += STRENGTH_WEIGHTS.volumeSwing;
  if (inputs.SwingCheck === '1') score += STRENGTH_WEIGHTS.swing;
  if (inputs.RSIStatus.includes('oversold')) score += STRENGTH_WEIGHTS.oversold;
  return Math.min(STRENGTH_MAX, score);
}

export type StrengthBand = 'low' | 'medium' | 'high';
export type StrengthColour = 'red' | 'yellow' | 'green';

/** Red below 30, yellow 30 to 69, green 70 and above. */
export function optionStrengthBand(score: number): { band: StrengthBand; colour: StrengthColour } {
  if (score >= 70) return { band: 'high', colour: 'green' };
  if (score >= 30) return { band: 'medium', colour: 'yellow' };
  return { band: 'low', colour: 'red' };
}
