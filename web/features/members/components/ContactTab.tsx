/**
 * The Contact tab: the member's contact fields as a form for those allowed member.save, read-only
 * for everyone else (docs/decisions.md "Member save"). The email is how the person is matched at
 * sign-in, so it is never editable.
 */
import { useState, type FormEvent } from 'react';
import { Button, DataList, Group, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { memberUpdateSchema, type Member } from '../../../../common/schemas/member';
import { ApiError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notifications';
import { useUpdateMember } from '../api/update-member';

const FIELDS = ['name', 'given_name', 'family_name', 'job_role', 'mobile_phone', 'office_phone', 'address'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
type Errors = Partial<Record<Field | 'member_email', string>>;

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

const valuesOf = (member: Member): Values =>
  Object.fromEntries(FIELDS.map((field) => [field, member[field] ?? ''])) as Values;

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
  const [values, setValues] = useState<Values>(() => valuesOf(member));
  const [errors, setErrors] = useState<Errors>({});
  const update = useUpdateMember();
  const saved = valuesOf(member);
  const dirty = FIELDS.some((field) => values[field] !== saved[field]);

  const input = (field: Field) => ({
    label: LABELS[field],
    value: values[field],
    error: errors[field],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { ...values, member_email: member.member_email };
    // The API's own schema: the same messages here as the server would answer.
    const parsed = memberUpdateSchema.safeParse(body);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    update.mutate(
      { organizationId: member.organization_id, memberId: member.member_id, member: parsed.data },
      {
        onSuccess: (fresh) => {
          setValues(valuesOf(fresh));
          notifySuccess(`Saved ${fresh.name}.`);
        },
        onError: (error) => {
          // lib/api.ts has shown the message; also put it beside the field it names.
          if (error instanceof ApiError && error.field) setErrors({ [error.field]: error.message });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
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
            value={member.member_email}
            readOnly
            variant="filled"
            description="Identifies the member at sign-in; it cannot be changed."
            error={errors.member_email}
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
            <Button variant="default" onClick={() => { setValues(saved); setErrors({}); }}>
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
