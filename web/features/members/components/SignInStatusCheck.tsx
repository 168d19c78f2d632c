/**
 * "Can this person sign in?" for administrators: the server follows the same steps as sign-in
 * (member by email, else one organization trusting the domain, and bans on the way) and says
 * what would happen (docs/decisions.md "Sign-in status"). Any email may be checked, so an
 * administrator can also try a newcomer's address before they first sign in.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconUserSearch } from '@tabler/icons-react';
import { statusQuery, type Member } from '../../../../common/schemas/member';
import { useMemberStatusCheck } from '../api/get-member-status';

export function SignInStatusCheck({ member }: { member: Member }) {
  const [email, setEmail] = useState(member.member_email);
  const [error, setError] = useState<string | undefined>();
  const check = useMemberStatusCheck();
  const result = check.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = statusQuery.safeParse({ email });
    if (!parsed.success || !parsed.data.email) {
      setError(parsed.success ? 'an email address' : parsed.error.issues[0]?.message);
      return;
    }
    check.mutate({ organizationId: member.organization_id, memberId: member.member_id, email: parsed.data.email });
  };

  return (
    <Card withBorder padding="md" maw={720}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Sign-in status
        </Title>
        <Text size="sm" c="dimmed">
          Check whether a person with this email address can sign in, and as a member of which organization.
        </Text>
        <form onSubmit={submit} noValidate>
          <Group align="flex-start" gap="xs" wrap="nowrap">
            <TextInput
              label="Email to check"
              type="email"
              value={email}
              error={error}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                setError(undefined);
              }}
              maxLength={320}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button type="submit" variant="light" mt={25} leftSection={<IconUserSearch size={16} aria-hidden />} loading={check.isPending}>
              Check
            </Button>
          </Group>
        </form>
        <div role="status" aria-live="polite">
          {result ? (
            <Alert
              color={result.can_sign_in ? 'teal' : 'orange'}
              variant="light"
              icon={result.can_sign_in ? <IconCircleCheck size={18} aria-hidden /> : <IconAlertTriangle size={18} aria-hidden />}
              title={
                <Group gap="xs" wrap="wrap">
                  <span className="break-anywhere">{result.email}</span>
                  <Badge size="sm" variant="outline" color={result.can_sign_in ? 'teal' : 'orange'}>
                    {result.can_sign_in ? 'Can sign in' : 'Cannot sign in'}
                  </Badge>
                </Group>
              }
            >
              <Text size="sm" className="break-anywhere">
                {result.message}
              </Text>
            </Alert>
          ) : null}
        </div>
      </Stack>
    </Card>
  );
}
