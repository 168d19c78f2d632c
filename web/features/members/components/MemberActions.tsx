/**
 * Unban, Ban (with a note) and Remove for those allowed (SPEC.md §6): the plain action first, Ban and Remove alike in
 * the danger look (components/danger.ts), as on the certificate and license screens. Nobody bans or removes
 * themselves (the server refuses it), so the buttons are not offered on one's own record.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@mantine/core';
import { IconBan, IconLockOpen, IconUserMinus } from '@tabler/icons-react';
import type { Member } from '../../../../common/schemas/member';
import { BanModal } from '../../../components/BanModal';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DANGER } from '../../../components/danger';
import { notifySuccess } from '../../../lib/notifications';
import { useBanMember, useUnbanMember } from '../api/ban-member';
import { useRemoveMember } from '../api/remove-member';
import { membersListPath } from '../paths';

export interface MemberActionsProps {
  member: Member;
  canBan: boolean;
  canUnban: boolean;
  canRemove: boolean;
}

export function MemberActions({ member, canBan, canUnban, canRemove }: MemberActionsProps) {
  const [dialog, setDialog] = useState<'ban' | 'remove' | null>(null);
  const navigate = useNavigate();
  const ban = useBanMember();
  const unban = useUnbanMember();
  const remove = useRemoveMember();
  const ref = { organizationId: member.organization_id, memberId: member.member_id };
  const banned = !!member.date_member_banned;
  const close = () => setDialog(null);

  return (
    <>
      {canUnban && banned ? (
        <Button
          variant="light"
          leftSection={<IconLockOpen size={16} aria-hidden />}
          loading={unban.isPending}
          onClick={() => unban.mutate(ref, { onSuccess: () => notifySuccess(`Unbanned ${member.name}.`) })}
        >
          Unban
        </Button>
      ) : null}
      {canBan && !banned ? (
        <Button {...DANGER} leftSection={<IconBan size={16} aria-hidden />} onClick={() => setDialog('ban')}>
          Ban
        </Button>
      ) : null}
      {canRemove ? (
        <Button {...DANGER} leftSection={<IconUserMinus size={16} aria-hidden />} onClick={() => setDialog('remove')}>
          Remove
        </Button>
      ) : null}

      <BanModal
        opened={dialog === 'ban'}
        onClose={close}
        title={`Ban ${member.name}`}
        description={`${member.name} will be refused from their next call on and cannot sign in until unbanned.`}
        pending={ban.isPending}
        onBan={async (note) => {
          // The promise goes back to BanModal, which shows a 400 about the note under Note.
          await ban.mutateAsync({ ...ref, note });
          close();
          notifySuccess(`Banned ${member.name}.`);
        }}
      />
      <ConfirmModal
        opened={dialog === 'remove'}
        onClose={close}
        title={`Remove ${member.name}?`}
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(ref, {
            onSuccess: () => {
              close();
              notifySuccess(`Removed ${member.name}.`);
              void navigate(membersListPath(member.organization_id), { replace: true });
            },
          })
        }
      >
        {`The member and their roles are deleted; their certificates stay with ${member.organization_name}. Removing is no ban: if a trusted domain admits ${member.member_email}, they join again at their next sign-in.`}
      </ConfirmModal>
    </>
  );
}
