import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../../common/events';
import { EVENT_GROUPS, eventLabel } from './event-groups';

describe('event groups', () => {
  it('list every event exactly once, so a new event shows on the screen', () => {
    const listed = EVENT_GROUPS.flatMap((group) => group.events);
    expect([...listed].sort()).toEqual([...EVENT_TYPES].sort());
    expect(EVENT_GROUPS.map((g) => g.title)).toEqual(['Certificates', 'Licenses', 'Members and organizations', 'Tokens and API keys', 'Vendor support access']);
  });

  it('label an event, and show a name this app does not know as it is', () => {
    expect(eventLabel('certificate.approved')).toBe('Certificate approved');
    expect(eventLabel('certificate.reissued')).toBe('certificate.reissued');
  });
});
