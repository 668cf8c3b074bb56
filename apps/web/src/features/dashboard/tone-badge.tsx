import { Badge } from '@mantine/core';
import type { SentimentTone } from '@signalboard/core';
import { TONE } from '../../theme';

const COLORS: Record<SentimentTone, string> = { positive: TONE.gain, negative: TONE.loss, mixed: TONE.middling, neutral: TONE.neutral };
const WORDS: Record<SentimentTone, string> = { positive: 'Positive', negative: 'Negative', mixed: 'Mixed', neutral: 'Neutral' };

/** The news' tone as a word and a signed score (docs/ui.md: never colour alone), e.g. "Positive +0.75". */
export function toneLabel(tone: SentimentTone, score: number): string {
  const value = Math.abs(score) < 0.005 ? '0.00' : `${score > 0 ? '+' : '\u2212'}${Math.abs(score).toFixed(2)}`;
  return `${WORDS[tone]} ${value}`;
}

export function ToneBadge({ tone, score }: { tone: SentimentTone; score: number }) {
  const label = toneLabel(tone, score);
  return (
    <Badge color={COLORS[tone]} variant="light" size="sm" radius="sm" style={{ flexShrink: 0, fontVariantNumeric: 'tabular-nums' }} title={`News tone ${label} (score from −1 to +1)`} aria-label={`News tone: ${label}`}>
      {label}
    </Badge>
  );
}
