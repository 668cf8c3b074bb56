import { Text, type TextProps } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';
import { changeColor } from '../../components/format';

/** A signed change in its colour (the theme's gain and loss text tokens), with an arrow for the eye (the sign carries the meaning). */
export function ChangeText({
  value,
  children,
  arrow = true,
  style,
  ...props
}: { value: number; children: ReactNode; arrow?: boolean; style?: CSSProperties } & TextProps) {
  const Arrow = value > 0 ? IconArrowUpRight : value < 0 ? IconArrowDownRight : null;
  return (
    <Text span c={changeColor(value)} style={{ whiteSpace: 'nowrap', ...style }} {...props}>
      {arrow && Arrow && <Arrow size="0.9em" stroke={2} aria-hidden style={{ verticalAlign: '-0.1em', marginRight: 2 }} />}
      {children}
    </Text>
  );
}
