/**
 * Migration 0034 (an organization's notices in one row) keeps every notice a person had, with its id and read mark,
 * on both engines, and goes down again leaving those.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases';
import { migrator } from '../../db/migrate';
import { listNotices } from './notices';

const dialects = await testDialects();
const AT = '2026-03-15T10:00:00.000Z';

describe.each(dialects)('migration 0034 on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => database?.drop());

  it("keeps each person's notices and read marks, and goes down and up again", async () => {
    const { db } = database;
    const migrations = migrator(db);
    expect((await migrations.migrateTo('20261201_0033_journal_page_index')).error).toBeUndefined();
    await db.insertInto('organizations').values({
      organization_id: 'org-0034', organization_name: 'Migrated', organization_role: 'CUSTOMER', parent_organization_id: null,
      website: null, logo_url: null, address: null, ban_note: null, date_organization_banned: null, date_created: AT,
    }).execute();
    await db.insertInto('members').values({
      member_id: 'member-0034', organization_id: 'org-0034', member_email: 'kept@migrated.example', name: 'Kept', given_name: null, family_name: null,
      job_role: null, mobile_phone: null, office_phone: null, address: null, ban_note: null, date_member_banned: null, date_created: AT,
    }).execute();
    const notice = (event: number, read: string | null) => ({
      member_id: 'member-0034', event_id: event, organization_id: 'org-0034', event_type: 'certificate.approved',
      title: `Approved ${event}`, link: null, date_created: AT, date_read: read,
    });
    await db.insertInto('notices').values([notice(1, AT), notice(2, null)]).execute();

    expect((await migrations.migrateToLatest()).error).toBeUndefined();
    const page = await listNotices(db, 'member-0034', { limit: 10 });
    expect(page).toMatchObject({ unread: 1, next_before: null });
    expect(page.items.map((n) => [n.title, n.date_read])).toEqual([['Approved 2', null], ['Approved 1', AT]]);
    // New notices take ids after the kept ones.
    await db.insertInto('notices').values({ ...notice(3, null), member_id: null, audience: 1 }).execute();
    const ids = (await db.selectFrom('notices').select('notice_id').orderBy('notice_id').execute()).map((n) => Number(n.notice_id));
    expect(ids[2]).toBeGreaterThan(ids[1]);

    // Down: an organization's notices go, a person's stay; up again.
    expect((await migrations.migrateTo('20261201_0033_journal_page_index')).error).toBeUndefined();
    expect((await db.selectFrom('notices').select('title').orderBy('notice_id').execute()).map((n) => n.title)).toEqual(['Approved 1', 'Approved 2']);
    expect((await migrations.migrateToLatest()).error).toBeUndefined();
    expect((await listNotices(db, 'member-0034', { limit: 10 })).items).toHaveLength(2);
  });
});
