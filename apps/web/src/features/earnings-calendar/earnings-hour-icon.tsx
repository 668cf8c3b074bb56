import { EARNINGS_HOUR_LABELS, type EarningsHour } from '@signalboard/core';
import { IconClockQuestion, IconMoonStars, IconSun, IconSunrise } from '@tabler/icons-react';

/** The time-of-day icon of an earnings release and the Mantine colour that goes with it. */
export const EARNINGS_HOUR_STYLE: Readonly<Record<EarningsHour, { Icon: typeof IconSun; color: string }>> = {
  BMO: { Icon: IconSunrise, color: 'orange' },
  AMC: { Icon: IconMoonStars, color: 'indigo' },
  DMH: { Icon: IconSun, color: 'teal' },
  Unknown: { Icon: IconClockQuestion, color: 'gray' },
};

export const EARNINGS_HOURS: readonly EarningsHour[] = ['BMO', 'AMC', 'DMH', 'Unknown'];

/**
 * The icon with its meaning as its accessible name ('Before market open', …) and hover title;
 * `decorative` hides it from assistive technology where the meaning is written beside it.
 */
export function EarningsHourIcon({ hour, size = 16, decorative = false }: { hour: EarningsHour; size?: number; decorative?: boolean }) {
  const { Icon, color } = EARNINGS_HOUR_STYLE[hour];
  const label = EARNINGS_HOUR_LABELS[hour];
  // The icon carries meaning: the colour's text token (3:1 and more on every surface, in both schemes).
  const style = { color: `var(--mantine-color-${color}-text)`, flexShrink: 0 };
  return decorative ? (
    <Icon size={size} stroke={1.8} aria-hidden style={style} />
  ) : (
    <Icon size={size} stroke={1.8} role="img" aria-label={label} title={label} style={style} />
  );
}
