import { Text, type TextProps } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';

/** The class of a change's text: green up, red down, dimmed flat (always beside a sign). */
export function changeClass(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return 'sb-dash-flat';
  return value > 0 ? 'sb-dash-up' : 'sb-dash-down';
}

/** A signed change in its colour, with an arrow for the eye (the sign carries the meaning). */
export function ChangeText({
  value,
  children,
  arrow = true,
  style,
  ...props
}: { value: number; children: ReactNode; arrow?: boolean; style?: CSSProperties } & TextProps) {
  const Arrow = value > 0 ? IconArrowUpRight : value < 0 ? IconArrowDownRight : null;
  return (
    <Text span className={changeClass(value)} style={{ whiteSpace: 'nowrap', ...style }} {...props}>
      {arrow && Arrow && <Arrow size="0.9em" stroke={2} aria-hidden style={{ verticalAlign: '-0.1em', marginRight: 2 }} />}
      {children}
    </Text>
  );
}
