/**
 * Certificate details (SPEC.md §2 "/certificates/{dn}", Certificates.Details): the DN as heading,
 * the badges and actions, validity and approval, the description, and the certificate itself.
 * The heading is built here rather than with <Page>: a DN wraps best between its RDNs (<wbr>),
 * which a text title cannot carry.
 */
import { Fragment, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ActionIcon, Button, Card, CopyButton, DataList, Group, SimpleGrid, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import type { Certificate } from '../../../common/schemas/certificate';
import { pemFileName } from '../../../common/pem';
import { saveBlob } from '../../lib/download';
import { formatDateTime } from '../../../common/dates';
import { nextCertificateChange } from '../../../common/status';
import { CertificateBadges } from '../../components/CertificateBadges';
import { Fact } from '../../components/Fact';
import { Loading } from '../../components/Loading';
import { BackLink } from '../../components/BackLink';
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

/** RSA 2048, EC P-256, Ed25519: the curve names an EC key's size, EdDSA's is in its name. */
function keyText(certificate: Certificate): string {
  if (certificate.key_curve) return `${certificate.key_algorithm} ${certificate.key_curve}`;
  if (certificate.key_size && !certificate.key_algorithm.startsWith('Ed')) return `${certificate.key_algorithm} ${certificate.key_size}`;
  return certificate.key_algorithm;
}

function Fingerprint({ value }: { value: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      {/* Wraps between the byte pairs (<wbr> adds no characters, so a selected or copied fingerprint stays exact). */}
      <Text span inherit miw={0}>
        {value.split(':').map((pair, index) => (
          <Fragment key={index}>
            {index > 0 ? (
              <>
                :<wbr />
              </>
            ) : null}
            {pair}
          </Fragment>
        ))}
      </Text>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy fingerprint'} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copied ? 'Copied' : 'Copy fingerprint'}>
              {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** Who issued it, what it is for, and how to recognise it: what operators check (issue 34). */
function Identity({ certificate, phone }: { certificate: Certificate; phone: boolean }) {
  const names = certificate.subject_alternative_names;
  return (
    <DataList labelWidth="8.5rem" orientation={phone ? 'vertical' : 'horizontal'}>
      <Fact label="Issuer">
        <DistinguishedName dn={certificate.issuer} />
      </Fact>
      <Fact label="SHA-256 fingerprint" mono>
        <Fingerprint value={certificate.fingerprint_sha256} />
      </Fact>
      <Fact label="Alternative names">
        {names.length ? (
          <Stack gap={2} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {names.map((name, index) => (
              <li key={index}>
                <Text span c="dimmed" size="sm">
                  {name.type}:
                </Text>{' '}
                {name.value}
              </li>
            ))}
          </Stack>
        ) : (
          '-'
        )}
      </Fact>
      <Fact label="Public key">{keyText(certificate)}</Fact>
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
      <Group gap="sm">
        <CopyButton value={certificate.certificate_pem} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            >
              {copied ? 'Copied' : 'Copy PEM'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          // The PEM is in the answer already: saved as it is, no second request.
          onClick={() => saveBlob(new Blob([certificate.certificate_pem], { type: 'application/x-pem-file' }), pemFileName(certificate.distinguished_name))}
        >
          Download PEM
        </Button>
      </Group>
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
      <BackLink to={certificatesPath(orgId)} list="certificates" />
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
      <Section title="Issuer and identity">
        <Identity certificate={certificate} phone={phone} />
      </Section>
      <Section title="Certificate">
        <CertificateData certificate={certificate} phone={phone} />
      </Section>
    </Stack>
  );
}
