/** Shows an admin screen only to those SCREENS allows; others get a plain explanation. */
import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { SCREENS } from '../../../common/policy';
import { Page } from '../../components/Page';
import { useAbility, useActor } from '../../lib/actor';
import type { AdminScreen } from './screens';

export function AdminGate({ screen, children }: { screen: AdminScreen['screen']; children: ReactNode }) {
  const actor = useActor();
  // Pending Tasks also opens to whoever settles approvals (an APPROVER), outside the sidebar's gate (docs/decisions.md).
  const reviews = useAbility('approval.review');
  if (SCREENS[screen](actor) || (screen === 'pendingTasks' && reviews)) return children;
  return (
    <Page title="No access">
      <Alert color="orange" variant="light" title="This admin screen is not available to you">
        Your roles do not include this screen. Ask a supervisor or administrator of your organization if you need it.
      </Alert>
    </Page>
  );
}
