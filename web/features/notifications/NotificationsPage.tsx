/**
 * An organization's Notifications screen (issue 13 items 2 and 5): the rules of its notices and
 * mails, and its webhook endpoints, in two tabs kept in the URL hash (#rules, #webhooks). For
 * those the policy lets manage them (`notifications.manage`: the organization's administrators,
 * operator supervisors); others see why not.
 */
import { Tabs } from '@mantine/core';
import { Loading } from '../../components/Loading';
import { NoPermission } from '../../components/NoPermission';
import { Page } from '../../components/Page';
import { useHashTab } from '../../components/useHashTab';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { allowedIn } from '../../lib/actor';
import { RulesPanel } from './components/RulesPanel';
import { WebhooksPanel } from './webhooks/WebhooksPanel';

const TABS = ['rules', 'webhooks'] as const;

export default function NotificationsPage() {
  const { organization } = useRouteOrganization();
  const [tab, setTab] = useHashTab(TABS);
  const subtitle = organization ? `Who hears about what in ${organization.organization_name}, by notice, mail and webhook.` : '…';

  return (
    <Page title="Notifications" subtitle={subtitle}>
      {!organization ? (
        <Loading />
      ) : !allowedIn(organization, 'notifications.manage') ? (
        <NoPermission title="You may not change the notifications here" doing="Changing the notifications" action="notifications.manage" />
      ) : (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="rules">Rules</Tabs.Tab>
            <Tabs.Tab value="webhooks">Webhooks</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="rules" pt="md">
            <RulesPanel organization={organization} />
          </Tabs.Panel>
          <Tabs.Panel value="webhooks" pt="md">
            <WebhooksPanel organization={organization} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Page>
  );
}
