/**
 * Certificate details (SPEC.md §2 "/certificates/{dn}", Certificates.Details): the DN as heading,
 * the badges and actions, validity and approval, the description, and the certificate itself.
 * The heading is built here rather than with <Page>: a DN wraps best between its RDNs (<wbr>),
 * which a text title cannot carry.
 */
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Button, Card, CopyButton, DataList, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { Certificate } from '../../../common/schemas/certificate';
import { formatDateTime } from '../../../common/dates';
import { nextCertificateChange } from '../../../common/status';
import { CertificateBadges } from '../../components/CertificateBadges';
import { Fact } from '../../components/Fact';
import { Loading } from '../../components/Loading';
import { NotFound } from '../../components/NotFound';
import { MONOSPACE_TEXT_AREA } from '../../components/monospace';
import { usePageTitle } from '../../components/usePageTitle';
import { usePhone } from '../../components/usePhone';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useStatusClock } from '../../lib/status-clock';
import { useCertificate } from './api/get-certificate';
import { CertificateActions } from './components/CertificateActions';
import { DescriptionEditor } from './components/DescriptionEditor';
import { DistinguishedName } from './components/DistinguishedName';
import { certificatesPath, dnOfPath } from './paths';

const when = (value: string | null) => (value ? formatDateTime(value) : '-');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function ValidityAndApproval({ certificate }: { certificate: Certificate }) {
  return (
    <DataList labelWidth="8.5rem">
      <Fact label="Valid from">{when(certificate.date_not_before)}</Fact>
      <Fact label="Valid to">{when(certificate.date_not_after)}</Fact>
      <Fact label="Approved on">{when(certificate.date_approved)}</Fact>
      <Fact label="Approved by">{certificate.approver?.name ?? '-'}</Fact>
      {certificate.date_revoked ? <Fact label="Revoked on">{when(certificate.date_revoked)}</Fact> : null}
      {certificate.date_expiry_acknowledged ? (
        <Fact label="Expiry acknowledged">{when(certificate.date_expiry_acknowledged)}</Fact>
      ) : null}
      <Fact label="Owner">{certificate.owner?.name ?? '-'}</Fact>
      <Fact label="Uploaded on">{when(certificate.date_created)}</Fact>
    </DataList>
  );
}

function CertificateData({ certificate, phone }: { certificate: Certificate; phone: boolean }) {
  return (
    <Stack gap="md">
      {/* On phones the long hex values get the whole width under their labels. */}
      <DataList labelWidth="8.5rem" orientation={phone ? 'vertical' : 'horizontal'}>
        <Fact label="Serial number" mono>
          {certificate.serial_number}
        </Fact>
        <Fact label="Algorithm">{certificate.signature_algorithm}</Fact>
        <Fact label="Version">{certificate.version}</Fact>
        <Fact label="Signature" mono>
          {certificate.signature}
        </Fact>
      </DataList>
      <Textarea
        label="Certificate PEM"
        value={certificate.certificate_pem}
        readOnly
        // One row per PEM line (and one for a sideways scrollbar): autosize would measure wrapped lines.
        rows={Math.min(certificate.certificate_pem.trimEnd().split('\n').length + 1, 40)}
        spellCheck={false}
        // PEM is line-oriented: scroll sideways on narrow screens instead of re-wrapping its lines.
        wrap="off"
        styles={MONOSPACE_TEXT_AREA}
      />
      <CopyButton value={certificate.certificate_pem} timeout={2000}>
        {({ copied, copy }) => (
          <Button
            variant="default"
            onClick={copy}
            leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            style={{ alignSelf: 'flex-start' }}
          >
            {copied ? 'Copied' : 'Copy PEM'}
          </Button>
        )}
      </CopyButton>
    </Stack>
  );
}

export default function CertificateDetailsPage() {
  const { orgId, organization } = useRouteOrganization();
  const dn = dnOfPath(useLocation().pathname);
  const { data: certificate, isPending, isError } = useCertificate({ organizationId: orgId, dn });
  const phone = usePhone();
  usePageTitle(certificate ? `Certificate ${certificate.distinguished_name}` : 'Certificate');
  // Valid turns into Not valid (and the actions change) at not-after while the page is open.
  const now = useStatusClock((t) => (certificate ? nextCertificateChange(certificate, t) : null));

  if (isPending) return <Loading />;
  if (isError || !certificate) return <NotFound what="certificate" back={{ to: certificatesPath(orgId), label: 'Back to the certificates' }} />;

  return (
    <Stack gap="lg">
      <Stack gap={4} miw={0}>
        <Title order={1} size={phone ? 'h3' : 'h2'} className="break-anywhere">
          <DistinguishedName dn={certificate.distinguished_name} />
        </Title>
        <Text c="dimmed" size="sm">
          {organization?.organization_name ?? certificate.organization_name}
        </Text>
      </Stack>
      <Stack gap="md">
        <CertificateBadges certificate={certificate} now={now} />
        <CertificateActions certificate={certificate} now={now} />
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Section title="Validity and approval">
          <ValidityAndApproval certificate={certificate} />
        </Section>
        <Section title="Description">
          <DescriptionEditor certificate={certificate} />
        </Section>
      </SimpleGrid>
      <Section title="Certificate">
        <CertificateData certificate={certificate} phone={phone} />
      </Section>
    </Stack>
  );
}
