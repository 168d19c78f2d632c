/** The overview's latest journal records, each leading to its organization's journal. */
import { Link } from 'react-router';
import { Anchor, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import type { Overview } from '../../../common/schemas/overview';
import { formatDateTime, localizeTimesInText } from '../../../common/dates';

const SCOPES: Record<Overview['journal']['scope'], string> = {
  organization: 'The newest records of the journal.',
  organizations: 'The newest records of the journals of these organizations.',
  own: 'The newest records of your own organization\'s journal (there are too many organizations to merge theirs).',
};

export function LatestRecords({ journal, organizationNames, journalPath }: {
  journal: Overview['journal'];
  /** Show whose journal each record is in (the admin overview). */
  organizationNames: boolean;
  journalPath: (organizationId: string) => string;
}) {
  const first = journal.records[0];
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby="overview-journal">
      <Stack gap="xs">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={2} size="h4" id="overview-journal">
            Latest journal records
          </Title>
          {first && !organizationNames ? (
            <Anchor component={Link} to={journalPath(first.organization_id)} size="sm">
              Open the journal
            </Anchor>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {SCOPES[journal.scope]}
        </Text>
        {journal.records.length === 0 ? <Text size="sm">No audit records found.</Text> : null}
        {journal.records.length > 0 ? (
          <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
            {journal.records.map((r) => (
              <li key={r.record_id}>
                <Group gap="xs" wrap="wrap" align="baseline">
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(r.date_created)}
                  </Text>
                  <Code>{r.reason}</Code>
                  {organizationNames ? (
                    <Anchor component={Link} to={journalPath(r.organization_id)} size="sm" className="break-anywhere">
                      {r.organization_name}
                    </Anchor>
                  ) : null}
                </Group>
                <Text size="sm" className="break-anywhere">
                  {localizeTimesInText(r.message)}
                  {r.member_email ? <Text span size="sm" c="dimmed"> ({r.member_email})</Text> : null}
                </Text>
              </li>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Card>
  );
}
