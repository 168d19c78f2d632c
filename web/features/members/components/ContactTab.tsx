/**
 * The Contact tab: the member's contact fields as a form for those allowed member.save, checked
 * with the API's own schema (lib/forms.ts), read-only for everyone else (docs/decisions.md "Member
 * save"). The email is how the person is matched at sign-in, so it is never editable: it goes back
 * unchanged, and a server error about it shows under it.
 */
import { Button, DataList, Group, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { memberUpdateSchema, type Member } from '../../../../common/schemas/member';
import { applyServerError, useSchemaForm } from '../../../lib/forms';
import { notifySuccess } from '../../../lib/notifications';
import { useUpdateMember } from '../api/update-member';

const FIELDS = ['name', 'given_name', 'family_name', 'job_role', 'mobile_phone', 'office_phone', 'address'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field | 'member_email', string>;

const LABELS: Record<Field | 'member_email', string> = {
  name: 'Name',
  given_name: 'Given name',
  family_name: 'Family name',
  job_role: 'Job role',
  member_email: 'Email',
  mobile_phone: 'Mobile phone',
  office_phone: 'Office phone',
  address: 'Address',
};

const valuesOf = (member: Member): Values => ({
  ...(Object.fromEntries(FIELDS.map((field) => [field, member[field] ?? ''])) as Record<Field, string>),
  member_email: member.member_email,
});

function ReadOnlyContact({ member }: { member: Member }) {
  const rows: [string, string | null][] = [
    [LABELS.name, member.name],
    [LABELS.given_name, member.given_name],
    [LABELS.family_name, member.family_name],
    [LABELS.job_role, member.job_role],
    [LABELS.member_email, member.member_email],
    [LABELS.mobile_phone, member.mobile_phone],
    [LABELS.office_phone, member.office_phone],
    [LABELS.address, member.address],
  ];
  return (
    <DataList labelWidth="140px" withDivider>
      {rows.map(([name, value]) => (
        <DataList.Item key={name}>
          <DataList.ItemLabel>{name}</DataList.ItemLabel>
          <DataList.ItemValue className="break-anywhere" style={{ whiteSpace: 'pre-line' }}>
            {value || '-'}
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}

function ContactForm({ member }: { member: Member }) {
  const form = useSchemaForm(memberUpdateSchema, valuesOf(member));
  const update = useUpdateMember();
  const saved = valuesOf(member);
  const dirty = FIELDS.some((field) => form.values[field] !== saved[field]);

  const input = (field: Field) => ({ label: LABELS[field], ...form.getInputProps(field) });

  const submit = (values: Values) => {
    update.mutate(
      { organizationId: member.organization_id, memberId: member.member_id, member: memberUpdateSchema.parse(values) },
      {
        onSuccess: (fresh) => {
          form.setValues(valuesOf(fresh));
          notifySuccess(`Saved ${fresh.name}.`);
        },
        onError: (error) => applyServerError(form, error),
      },
    );
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md" maw={720}>
        <TextInput {...input('name')} required maxLength={200} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput {...input('given_name')} maxLength={100} />
          <TextInput {...input('family_name')} maxLength={100} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput {...input('job_role')} maxLength={200} />
          <TextInput
            label={LABELS.member_email}
            {...form.getInputProps('member_email')}
            readOnly
            variant="filled"
            description="Identifies the member at sign-in; it cannot be changed."
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput {...input('mobile_phone')} type="tel" autoComplete="off" maxLength={50} />
          <TextInput {...input('office_phone')} type="tel" autoComplete="off" maxLength={50} />
        </SimpleGrid>
        <Textarea {...input('address')} autosize minRows={3} maxLength={1000} />
        <Group gap="xs">
          <Button type="submit" leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={update.isPending} disabled={!dirty}>
            Save
          </Button>
          {dirty ? (
            <Button variant="default" onClick={() => form.setValues(saved)}>
              Reset
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}

export function ContactTab({ member, canSave }: { member: Member; canSave: boolean }) {
  if (canSave) return <ContactForm key={member.member_id} member={member} />;
  return (
    <Stack gap="xs">
      <ReadOnlyContact member={member} />
      <Text size="xs" c="dimmed">
        Administrators and supervisors of the organization edit contact details.
      </Text>
    </Stack>
  );
}
