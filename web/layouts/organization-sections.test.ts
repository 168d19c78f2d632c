import { describe, expect, it } from 'vitest';
import { sectionAt, sectionsFor, switchOrganizationPath } from './organization-sections';

const manager = { organization_id: 'org-b', abilities: ['notifications.manage' as const] };
const member = { organization_id: 'org-b', abilities: [] };

describe('organization sections', () => {
  it('lists Notifications last, only where the caller may manage them', () => {
    expect(sectionsFor(manager).map((s) => s.label).at(-1)).toBe('Notifications');
    expect(sectionsFor(member).map((s) => s.path)).not.toContain('notifications');
    expect(sectionsFor(null).map((s) => s.path)).not.toContain('notifications');
  });

  it('lists Access review and Support access only where the caller may review access (issue 33)', () => {
    const reviewer = { organization_id: 'org-b', abilities: ['notifications.manage' as const, 'access.review' as const] };
    expect(sectionsFor(reviewer).map((s) => s.path).slice(-3)).toEqual(['notifications', 'access-review', 'support-access']);
    expect(sectionsFor(manager).map((s) => s.path)).not.toContain('access-review');
    expect(sectionsFor(manager).map((s) => s.path)).not.toContain('support-access');
  });

  it('names the section of a path, gated or not', () => {
    expect(sectionAt('/organizations/org-a/notifications/webhooks/ep-1')?.label).toBe('Notifications');
    expect(sectionAt('/organizations/org-a/members/m-1')?.label).toBe('Members');
    expect(sectionAt('/organizations/org-a')).toBeUndefined();
  });

  it('keeps the section when switching organization, unless the caller does not see it there', () => {
    expect(switchOrganizationPath('/organizations/org-a/notifications/webhooks/ep-1', manager)).toBe('/organizations/org-b/notifications');
    expect(switchOrganizationPath('/organizations/org-a/notifications', member)).toBe('/organizations/org-b/certificates');
    expect(switchOrganizationPath('/organizations/org-a/licenses/l-1', member)).toBe('/organizations/org-b/licenses');
  });
});
