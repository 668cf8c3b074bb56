import { ActionIcon, Menu, useComputedColorScheme, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';

const CHOICES: ReadonlyArray<{ value: MantineColorScheme; label: string; Icon: typeof IconSun }> = [
  { value: 'light', label: 'Light', Icon: IconSun },
  { value: 'dark', label: 'Dark', Icon: IconMoon },
  { value: 'auto', label: 'Follow the system', Icon: IconDeviceDesktop },
];

/**
 * Colour scheme: light, dark, or following the system (the default). Mantine remembers the choice in
 * local storage, so "Follow the system" is always one click away again.
 */
export function ColorSchemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const shown = useComputedColorScheme('light', { getInitialValueInEffect: true });
  return (
    // No focus placeholder: a focusable element in role="menu" that is no menuitem (axe: aria-required-children).
    <Menu position="bottom-end" withinPortal shadow="md" width={200} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Color scheme">
          {shown === 'dark' ? <IconMoon size={18} /> : <IconSun size={18} />}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Color scheme</Menu.Label>
        {CHOICES.map(({ value, label, Icon }) => (
          <Menu.Item
            key={value}
            leftSection={<Icon size={16} />}
            rightSection={colorScheme === value ? <IconCheck size={14} aria-label="selected" /> : null}
            onClick={() => setColorScheme(value)}
          >
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
