/**
 * The answer of a bulk upload (docs/decisions.md "Bulk upload"): a summary ("3 uploaded, 1
 * refused") and one row per PEM block of the text, in its order: its position, its DN (a link to
 * the details when it was uploaded), Uploaded or Refused, and the server's message, which for a
 * refused block is the single upload's reason. The heading takes the focus when it appears, so a
 * screen reader reads the summary first.
 */
import { useEffect, useRef } from 'react';
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { BulkUploadItem, BulkUploadResult } from '../../../../common/schemas/bulk-upload';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { AnchorLink, ButtonLink } from '../../../components/Link';
import { certificateDetailsPath } from '../../../lib/navigation';
import { certificatesPath } from '../paths';
import { DistinguishedName } from './DistinguishedName';

const columns = (orgId: string): DataColumn<BulkUploadItem>[] => [
  { header: 'Position', nowrap: true, width: '6rem', cell: (item) => `#${item.index}` },
  {
    header: 'Distinguished Name',
    rowHeader: true,
    breakAnywhere: true,
    width: '38%',
    cell: (item) =>
      item.distinguished_name === null ? (
        <Text span c="dimmed">
          Not read
        </Text>
      ) : item.outcome === 'uploaded' ? (
        <AnchorLink to={certificateDetailsPath(orgId, item.distinguished_name)} fw={600}>
          <DistinguishedName dn={item.distinguished_name} />
        </AnchorLink>
      ) : (
        <DistinguishedName dn={item.distinguished_name} />
      ),
  },
  {
    header: 'Result',
    nowrap: true,
    cell: (item) => (
      <Badge color={item.outcome === 'uploaded' ? 'green' : 'red'} variant="light" size="sm">
        {item.outcome === 'uploaded' ? 'Uploaded' : 'Refused'}
      </Badge>
    ),
  },
  // An uploaded block's message repeats its DN: the row already shows it.
  { header: 'Message', breakAnywhere: true, width: '40%', cell: (item) => (item.outcome === 'uploaded' ? 'Waits for approval.' : item.message) },
];

export const bulkSummary = (result: BulkUploadResult) => `${result.uploaded} uploaded, ${result.refused} refused`;

export function BulkUploadResults({ orgId, result, onMore }: { orgId: string; result: BulkUploadResult; onMore: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack gap="md" component="section" aria-labelledby="bulk-upload-result">
      <div>
        <Title order={2} size="h3" id="bulk-upload-result" ref={heading} tabIndex={-1}>
          {bulkSummary(result)}
        </Title>
        <Text size="sm" c="dimmed">
          {result.uploaded > 0 ? 'The uploaded certificates wait for approval. ' : ''}
          {result.refused > 0 ? 'Nothing of a refused certificate was stored: correct it and upload it again.' : ''}
        </Text>
      </div>
      <DataTable label="Uploaded and refused certificates" columns={columns(orgId)} rows={result.results} rowKey={(item) => item.index} minWidth={760} alignTop />
      <Group gap="sm">
        <ButtonLink to={certificatesPath(orgId)}>Go to the certificates</ButtonLink>
        <Button variant="default" onClick={onMore}>
          Upload more certificates
        </Button>
      </Group>
    </Stack>
  );
}
