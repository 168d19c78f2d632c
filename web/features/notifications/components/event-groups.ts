/** The events of common/events.ts in the groups the screens list them in, each with its label. */
import { EVENT_LABELS, EVENT_TYPES, type EventType } from '../../../../common/events';

export interface EventGroup {
  title: string;
  events: EventType[];
}

const GROUPS: { title: string; prefixes: string[] }[] = [
  { title: 'Certificates', prefixes: ['certificate.'] },
  { title: 'Licenses', prefixes: ['license.'] },
  { title: 'Members and organizations', prefixes: ['member.', 'organization.', 'role.'] },
  { title: 'Tokens and API keys', prefixes: ['token.', 'api_key.'] },
  { title: 'Vendor support access', prefixes: ['support_access.'] },
];

export const EVENT_GROUPS: EventGroup[] = GROUPS.map(({ title, prefixes }) => ({
  title,
  events: EVENT_TYPES.filter((event) => prefixes.some((prefix) => event.startsWith(prefix))),
}));

/** An event's label; a name this web app does not know yet (a newer server) as it is. */
export const eventLabel = (event: string): string => EVENT_LABELS[event as EventType] ?? event;
