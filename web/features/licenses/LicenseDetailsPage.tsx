/**
 * License details (SPEC.md §2 "/licenses/{licenseId}"): heading, badges, fields, the license key
 * once approved, and the actions. While Not approved an approver may correct the fields, and
 * Approve sends them, checked with the approval's field schemas (lib/forms.ts); a server 400
 * shows under the field it names. Approved or rejected licenses are read-only. After a 409 the
 * license is fetched again and the form shows the current version.
 */
import { useEffect, useMemo, type FormEvent } from 'react';
import { Navigate, useParams } from 'react-router';
import { Card, Stack, Text, Title } from '@mantine/core';
import type { License } from '../../../common/schemas/license';
import { licenseStatus, nextLicenseChange } from '../../../common/status';
import { Loading } from '../../components/Loading';
import { NotFound } from '../../components/NotFound';
import { Page } from '../../components/Page';
import { applyServerError, useSchemaForm } from '../../lib/forms';
import { useStatusClock } from '../../lib/status-clock';
import { licenseDetailsPath } from '../../lib/navigation';
import { notifySuccess } from '../../lib/notifications';
import { useApproveLicense } from './api/approve-license';
import { useLicense } from './api/get-license';
import { LicenseActions } from './components/LicenseActions';
import { LicenseBadges } from './components/LicenseBadges';
import { LicenseFacts } from './components/LicenseFacts';
import { LicenseFields } from './components/LicenseFields';
import { LicenseKeyPanel } from './components/LicenseKeyPanel';
import { licensesPath } from './paths';
import { approvalDraftSchema, DRAFT_FIELDS, draftOf, draftValidUntil, toApproval } from './components/license-draft';

function LicenseDetails({ license }: { license: License }) {
  // Badges, days left and actions change at valid-from, valid-until and each day while open.
  const now = useStatusClock((t) => nextLicenseChange(license, t));
  const status = licenseStatus(license, now);
  const mayApprove = license.abilities.includes('license.approve');
  const editing = status.can_edit && mayApprove;
  const approve = useApproveLicense();

  // The form starts from the license as fetched, and again from each new version of it.
  const initial = useMemo(() => draftOf(license), [license]);
  const form = useSchemaForm(approvalDraftSchema, initial);
  const { setValues } = form;
  useEffect(() => setValues(initial), [setValues, initial]);

  // Approve (a button of the actions, outside the form) checks and sends the draft.
  const approveEdited = form.onSubmit((draft) =>
    approve.mutate(toApproval(license, draft), {
      onSuccess: (approved) => notifySuccess(`License ${approved.license_name} approved.`),
      onError: (error) => applyServerError(form, error, DRAFT_FIELDS),
    }),
  );
  // Enter in a field does not approve: only the button does.
  const ignoreSubmit = (event: FormEvent) => event.preventDefault();

  return (
    <Page title={license.license_name} documentTitle={`${license.license_name} · Licenses`} subtitle={license.organization_name} back={{ to: licensesPath(license.organization_id), list: 'licenses' }}>
      <LicenseBadges license={license} now={now} size="md" />

      {editing ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="license-edit-heading">
          <Stack gap="md">
            <div>
              <Title order={2} size="h4" id="license-edit-heading">
                Request
              </Title>
              <Text size="sm" c="dimmed">
                Correct the request if needed, then approve or reject it. Once decided, the license can no longer be changed.
              </Text>
            </div>
            <form id="license-form" onSubmit={ignoreSubmit} noValidate aria-labelledby="license-edit-heading">
              <LicenseFields form={form} disabled={approve.isPending} license={license} />
            </form>
          </Stack>
        </Card>
      ) : null}

      <Card withBorder padding="lg" component="section" aria-label="License details">
        <LicenseFacts
          license={license}
          status={status}
          editing={editing}
          validUntil={editing ? draftValidUntil(form.values, license) : license.date_valid_until}
        />
      </Card>

      {status.has_license_key ? <LicenseKeyPanel licenseId={license.license_id} /> : null}
      {status.approval === 'NOT_APPROVED' ? (
        <Text size="sm" c="dimmed">
          The license key is shown here once the license is approved.
        </Text>
      ) : null}

      <LicenseActions license={license} status={status} onApprove={() => approveEdited()} approving={approve.isPending} />
    </Page>
  );
}

export default function LicenseDetailsPage() {
  const { orgId = '', licenseId } = useParams();
  const { data: license, isPending, isError } = useLicense(licenseId);

  if (isPending) return <Loading />;
  if (isError || !license) return <NotFound what="license" back={{ to: licensesPath(orgId), label: 'Back to the licenses' }} />;
  // A link with another organization's id: show it under its own organization, whose roles count.
  if (license.organization_id !== orgId) {
    return <Navigate to={licenseDetailsPath(license.organization_id, license.license_id)} replace />;
  }
  return <LicenseDetails license={license} />;
}
