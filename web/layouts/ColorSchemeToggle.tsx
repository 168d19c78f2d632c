/**
 * Light or dark (docs/decisions.md "Dark mode"): the screens follow the system's setting until the
 * person picks one here; Mantine's colour scheme manager keeps the pick in localStorage, and
 * web/index.html reads it again before the first paint of the next load.
 */
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  // Read from the attribute index.html's script set, so the first render already shows the right icon.
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const other = scheme === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Switch to ${other} mode`} onClick={() => setColorScheme(other)}>
      {scheme === 'dark' ? <IconSun size={20} aria-hidden /> : <IconMoon size={20} aria-hidden />}
    </ActionIcon>
  );
}
