/**
 * The header's menu on phones (AppHeader): Mantine's Menu with its popover and floating-ui, a chunk
 * that loads when the person reaches for the menu button, not with the screen.
 */
// All of Mantine's styles: the first screens load only their own (web/mantine-first-screens.css).
import '@mantine/core/styles.layer.css';
import { Link } from 'react-router';
import { Menu } from '@mantine/core';
import type { ReactNode } from 'react';

export interface HeaderMenuProps {
  /** The menu button, the same one AppHeader shows before this chunk has loaded. */
  button: ReactNode;
  name: string | null;
  links: { to: string; label: string }[];
}

export default function HeaderMenu({ button, name, links }: HeaderMenuProps) {
  return (
    // No initial-focus placeholder: that box (role=presentation) is no child a menu may have (axe, critical); the
    // focus goes to the first item instead.
    <Menu position="bottom-end" width={220} shadow="md" defaultOpened withInitialFocusPlaceholder={false}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        {name ? <Menu.Label>{name}</Menu.Label> : null}
        {links.map((link) => (
          <Menu.Item key={link.to} component={Link} to={link.to}>
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
