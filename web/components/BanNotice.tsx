/** The Banned badge, and on details pages the ban's date and note. */
import type { ReactNode } from 'react';
import { Alert, Badge, Group, Text } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { formatDateTime } from '../../common/dates';

function BannedBadge() {
  return (
    <Badge color="red" variant="light" size="sm">
      Banned
    </Badge>
  );
}

/** A name (a link or text) with the Banned badge beside it while banned. A span: it also stands in a subtitle. */
export function WithBannedBadge({ banned, children }: { banned: boolean; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="wrap" component="span">
      {children}
      {banned ? <BannedBadge /> : null}
    </Group>
  );
}

export interface BanNoticeProps {
  /** "Contoso", "Max Member" */
  who: string;
  date: string | null;
  note: string | null;
}

export function BanNotice({ who, date, note }: BanNoticeProps) {
  if (!date) return null;
  return (
    <Alert color="red" variant="light" icon={<IconBan size={18} aria-hidden />} title={`${who} is banned`}>
      <Text size="sm">Since {formatDateTime(date)}.</Text>
      <Text size="sm" className="break-anywhere">
        {note ? `Note: ${note}` : 'No note was given.'}
      </Text>
    </Alert>
  );
}
