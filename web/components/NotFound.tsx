/**
 * The one not-found state of the details pages and of an organization's pages
 * (docs/decisions.md "Consistent patterns"): the page's heading says what was not found, the text
 * why it may be, and a button leads back to the list it belongs to. The server answers 404 both
 * for an id that does not exist and for one of an organization the person may not read (it tells
 * nobody which ids others have), so the screen cannot tell them apart either, and says both.
 * Shown inside the layout, so the header and sidebar stay; /404 is for unknown paths.
 */
import { Stack, Text } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import { ButtonLink } from './Link';
import { Page } from './Page';

export interface NotFoundProps {
  /** What was asked for, in lower case: "certificate", "organization". */
  what: string;
  /** The way back: the list it belongs to. */
  back: { to: string; label: string };
}

export function NotFound({ what, back }: NotFoundProps) {
  const title = `${what.charAt(0).toUpperCase()}${what.slice(1)} not found`;
  return (
    <Page title={title}>
      <Stack gap="md" align="flex-start">
        <Text>{`There is no ${what} at this address that you may see: it does not exist (any more), or it is not yours.`}</Text>
        <ButtonLink to={back.to} variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />}>
          {back.label}
        </ButtonLink>
      </Stack>
    </Page>
  );
}
