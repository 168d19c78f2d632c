/**
 * The one way back from a details screen to its list (issue 34: back links differed from screen to screen): a small
 * link with a chevron above the heading, "Back to <list>", on every details screen (Page's `back`, or beside a
 * heading a screen builds itself). The breadcrumb above (SubNavbar) says where the screen sits; this goes back.
 */
import { Group } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import { AnchorLink } from './Link';

export interface Back {
  to: string;
  /** The list's name in lower case, as in running text: "certificates" reads "Back to certificates". */
  list: string;
}

export function BackLink({ to, list }: Back) {
  return (
    <AnchorLink to={to} size="sm" w="fit-content" data-back-link>
      <Group gap={4} component="span" wrap="nowrap">
        <IconChevronLeft size={14} aria-hidden />
        {`Back to ${list}`}
      </Group>
    </AnchorLink>
  );
}
