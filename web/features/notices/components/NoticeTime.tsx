/** When a notice came: "5 minutes ago", with the exact date and time (SPEC.md §9) as its title and datetime. */
import { Text } from '@mantine/core';
import { formatDateTime } from '../../../../common/dates';
import { formatRelativeTime } from '../relative-time';

export function NoticeTime({ date }: { date: string }) {
  return (
    <Text component="time" size="xs" c="dimmed" dateTime={date} title={formatDateTime(date)}>
      {formatRelativeTime(date)}
    </Text>
  );
}
