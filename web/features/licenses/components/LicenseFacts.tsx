/** The read-only fields of a license's details, as a description list (SPEC.md §3 "License"). */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import type { License } from '../../../../common/schemas/license';
import { formatDate, formatDateTime, formatDaysLeft, formatFirstValidDay, formatLastValidDay } from '../../../../common/dates';
import { label } from '../../../../common/enums';
import type { LicenseStatus } from '../../../../common/status';
import { licenseDetailsPath } from '../../../lib/navigation';

function Fact({ term, children, wide }: { term: string; children: ReactNode; wide?: boolean }) {
  return (
    <Stack gap={2} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text component="dt" size="sm" c="dimmed">
        {term}
      </Text>
      <Text component="dd" m={0} className="break-anywhere" style={{ whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </Stack>
  );
}

const when = (value: string | null) => (value ? formatDateTime(value) : '-');

function Successor({ license }: { license: License }) {
  const successor = license.extended_by;
  if (!successor) return <>-</>;
  return (
    <>
      <Anchor component={Link} to={licenseDetailsPath(license.organization_id, successor.license_id)}>
        {successor.license_name}
      </Anchor>{' '}
      ({formatFirstValidDay(successor.date_valid_from)} – {formatLastValidDay(successor.date_valid_until)},{' '}
      {successor.date_approved ? `approved ${formatDate(successor.date_approved)}` : 'waiting for approval'})
    </>
  );
}

export interface LicenseFactsProps {
  license: License;
  status: LicenseStatus;
  /** The fields the edit form shows are left out here. */
  editing: boolean;
  /** The end of the window as edited, while editing. */
  validUntil: string | null;
}

export function LicenseFacts({ license, status, editing, validUntil }: LicenseFactsProps) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" verticalSpacing="md" m={0}>
      {editing ? null : (
        <>
          <Fact term="License name">{license.license_name}</Fact>
          <Fact term="Scope">{label(license.license_scope)}</Fact>
          <Fact term="Valid from">{formatFirstValidDay(license.date_valid_from)}</Fact>
          <Fact term="Days valid">{license.days_valid}</Fact>
        </>
      )}
      <Fact term="Last valid day">{validUntil ? formatLastValidDay(validUntil) : '-'}</Fact>
      <Fact term="Days left">{status.valid ? formatDaysLeft(status.days_left) : '-'}</Fact>
      <Fact term="Organization">{license.organization_name}</Fact>
      <Fact term="Requested on">{when(license.date_created)}</Fact>
      {license.date_approved ? <Fact term="Approved on">{when(license.date_approved)}</Fact> : null}
      {license.date_rejected ? <Fact term="Rejected on">{when(license.date_rejected)}</Fact> : null}
      {license.date_expiry_acknowledged ? <Fact term="Expiry acknowledged on">{when(license.date_expiry_acknowledged)}</Fact> : null}
      {license.extended_by ? (
        <Fact term="Extended by" wide>
          <Successor license={license} />
        </Fact>
      ) : null}
      {editing ? null : (
        <Fact term="Note" wide>
          {license.note || '-'}
        </Fact>
      )}
    </SimpleGrid>
  );
}
