/**
 * The one "no permission" state of a screen whose action the person's roles here do not allow
 * (docs/decisions.md "Consistent patterns"): an alert naming the roles it needs (common/policy.ts
 * ACTIONS), in place of the form, so nobody fills in a form that cannot be sent.
 */
import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { label } from '../../common/enums';
import { ACTIONS, type Action } from '../../common/policy';

/** "Supervisor, Issuer or Approver" */
function roleList(action: Action): string {
  const roles = ACTIONS[action].map(label);
  return roles.length > 1 ? `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}` : roles[0];
}

export interface NoPermissionProps {
  /** "You may not upload certificates here" */
  title: string;
  /** What needs the roles, as a sentence's subject: "Uploading a certificate". */
  doing: string;
  action: Action;
}

export function NoPermission({ title, doing, action }: NoPermissionProps) {
  return (
    <Alert color="orange" variant="light" icon={<IconLock size={20} aria-hidden />} title={title}>
      {`${doing} needs the ${roleList(action)} role in this organization. Ask an administrator of your organization if you need it.`}
    </Alert>
  );
}
