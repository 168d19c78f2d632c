/**
 * Request a license (SPEC.md §2 "/licenses/new") with the defaults of SPEC.md §5. The form is
 * checked with the API's own field schemas first (lib/forms.ts); a server 400 shows under the
 * field it names, a 409 (a duplicate name) as a toast from lib/api.ts, and the form stays as
 * typed. Afterwards: the new license's details.
 */
import { useNavigate } from 'react-router';
import { Button, Card, Group, Stack } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { ButtonLink } from '../../components/Link';
import { NoPermission } from '../../components/NoPermission';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useAllowedHere } from '../../lib/actor';
import { applyServerError, useSchemaForm } from '../../lib/forms';
import { licenseDetailsPath } from '../../lib/navigation';
import { notifySuccess } from '../../lib/notifications';
import { useRequestLicense } from './api/request-license';
import { LicenseFields } from './components/LicenseFields';
import { DRAFT_FIELDS, newDraft, requestDraftSchema, toRequest, type LicenseDraft } from './components/license-draft';
import { licensesPath } from './paths';

export default function RequestLicensePage() {
  const { orgId, organization } = useRouteOrganization();
  const mayRequest = useAllowedHere('license.request');
  const navigate = useNavigate();
  const request = useRequestLicense();
  const form = useSchemaForm(requestDraftSchema, newDraft());

  const submit = (draft: LicenseDraft) => {
    request.mutate(
      { organizationId: orgId, request: toRequest(draft) },
      {
        onSuccess: (license) => {
          notifySuccess(`License ${license.license_name} requested.`);
          void navigate(licenseDetailsPath(license.organization_id, license.license_id), { replace: true });
        },
        onError: (error) => applyServerError(form, error, DRAFT_FIELDS),
      },
    );
  };

  return (
    <Page title="Request license" subtitle={organization?.organization_name ?? '…'}>
      {organization && !mayRequest ? (
        <NoPermission title="You may not request licenses here" doing="Requesting a license" action="license.request" />
      ) : (
        <Card withBorder padding="lg" maw={760}>
          <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Request license">
            <Stack gap="lg">
              <LicenseFields form={form} disabled={request.isPending} />
              <Group justify="flex-end" gap="sm">
                <ButtonLink to={licensesPath(orgId)} variant="default">
                  Cancel
                </ButtonLink>
                <Button type="submit" leftSection={<IconSend size={16} aria-hidden />} loading={request.isPending}>
                  Request license
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      )}
    </Page>
  );
}
