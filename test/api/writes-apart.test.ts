/**
 * Writes to different objects never refuse each other (docs/decisions.md "Kept answers", "Concurrency"): approvals
 * of distinct certificates in several organizations, six at a time, while the notification dispatcher fans the
 * events out (notices and their journal records in every organization) — every approval succeeds, and PostgreSQL
 * counts no deadlock. With the whole-database epoch rows, a request and the dispatcher took rows in opposite orders.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDialects } from '../support/databases';
import { useTestApp } from '../support/test-app';
import { factories } from '../support/factories';
import { dispatchEvents } from '../../server/modules/notifications/dispatch';
import { isPostgres } from '../../server/db/database';

const dialects = await testDialects();
const ORGANIZATIONS = 6;
const PER_ORGANIZATION = 15;
const AT_ONCE = 6;

describe.each(dialects)('writes to different objects on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);

  async function deadlocks(): Promise<number> {
    if (!isPostgres(t.db)) return 0;
    const { rows } = await sql<{ n: number }>`select deadlocks as n from pg_stat_database where datname = current_database()`.execute(t.db);
    return Number(rows[0].n);
  }

  it('approves distinct certificates six at a time while the dispatcher runs: none refused, no deadlock', async () => {
    const w = await make.cooperation();
    const dns: string[] = [];
    for (let o = 0; o < ORGANIZATIONS; o++) {
      const organization = await make.organization({ parent: w.partner });
      // Members with the roles the notification rules name, so every approval fans out notices and a journal record.
      await make.member(organization, { role: 'ADMINISTRATOR' });
      await make.member(organization, { role: 'ISSUER' });
      for (let i = 0; i < PER_ORGANIZATION; i++) dns.push((await make.certificate(organization, 'requested')).dn);
    }
    // Interleaved across organizations, as people in several of them approve at once.
    dns.sort((a, b) => a.localeCompare(b));
    const before = await deadlocks();
    let dispatching = true;
    const dispatcher = (async () => {
      let sent = 0;
      while (dispatching) {
        sent += await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'http://localhost:8080', mail: false }, 10);
        // A turn of the event loop between rounds, as the worker's timer gives: SQLite's calls never wait for I/O.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return sent + (await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'http://localhost:8080', mail: false }, 10));
    })();
    const statuses: number[] = [];
    for (let i = 0; i < dns.length; i += AT_ONCE) {
      const answers = await Promise.all(dns.slice(i, i + AT_ONCE).map((dn) =>
        t.call(w.supervisor.email, { method: 'POST', url: `/api/approve/${encodeURIComponent(dn)}` })));
      statuses.push(...answers.map((a) => a.statusCode));
    }
    dispatching = false;
    const fannedOut = await dispatcher;
    expect(statuses.filter((s) => s !== 204), statuses.join(' ')).toEqual([]);
    expect(fannedOut).toBeGreaterThanOrEqual(dns.length);
    expect(await deadlocks()).toBe(before);
    const notices = await t.db.selectFrom('audit_records').select('message').where('reason', '=', 'NOTICE_SENT').execute();
    expect(notices.length).toBeGreaterThan(0);
  });
});
