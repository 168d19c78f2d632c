/**
 * Request a license (SPEC.md §2 "/licenses/new") with the defaults of SPEC.md §5. The form is
 * checked with the API's own schema first; the server's answer (a duplicate name: 409) arrives
 * as a toast from lib/api.ts and the form stays as typed. Afterwards: the new license's details.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Card, Group, Stack } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { licenseRequestSchema } from '../../../common/schemas/license';
import { ButtonLink } from '../../components/Link';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { useAllowedHere } from '../../lib/actor';
import { licenseDetailsPath } from '../../lib/navigation';
import { notifySuccess } from '../../lib/notifications';
import { useRequestLicense } from './api/request-license';
import { LicenseFields } from './components/LicenseFields';
import { errorsOf, newDraft, toRequest } from './components/license-draft';
import { useLicenseDraft } from './components/useLicenseDraft';
import { licensesPath } from './paths';

export default function RequestLicensePage() {
  const { orgId, organization } = useRouteOrganization();
  const mayRequest = useAllowedHere('license.request');
  const navigate = useNavigate();
  const request = useRequestLicense();
  const [initial] = useState(() => newDraft());
  const { draft, errors, setErrors, change } = useLicenseDraft(initial);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = toRequest(draft);
    const checked = licenseRequestSchema.safeParse(body);
    if (!checked.success) {
      setErrors(errorsOf(checked.error.issues));
      return;
    }
    setErrors({});
    request.mutate(
      { organizationId: orgId, request: body },
      {
        onSuccess: (license) => {
          notifySuccess(`License ${license.license_name} requested.`);
          void navigate(licenseDetailsPath(license.organization_id, license.license_id), { replace: true });
        },
      },
    );
  };

  return (
    <Page title="Request license" subtitle={organization?.organization_name ?? '…'}>
      {organization && !mayRequest ? (
        <Alert color="orange" variant="light" title="You may not request licenses here">
          Requesting a license needs the Supervisor, Issuer or Approver role in this organization.
        </Alert>
      ) : null}
      <Card withBorder padding="lg" maw={760}>
        <form onSubmit={submit} noValidate aria-label="Request license">
          <Stack gap="lg">
            <LicenseFields draft={draft} errors={errors} disabled={request.isPending} onChange={change} />
            <Group justify="flex-end" gap="sm">
              <ButtonLink to={licensesPath(orgId)} variant="default">
                Cancel
              </ButtonLink>
              <Button type="submit" leftSection={<IconSend size={16} aria-hidden />} loading={request.isPending} disabled={!mayRequest}>
                Request license
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
