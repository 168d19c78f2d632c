/**
 * The demo's "today" licenses list as today where the demo is looked at (docs/decisions.md
 * "Licenses"): seeded in the portal process's zone (TZ), not on the UTC day, which in New York's
 * morning is yesterday's evening and in Auckland's early hours the day before. process.env.TZ is
 * set per case and put back (Node applies it to every Date and Intl from then on).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects } from '../../test/support/databases';
import { formatDate, formatLastValidDay } from '../../common/dates';
import { seedDemoData } from './seed';

const dialects = await testDialects();
const NOW = new Date('2026-11-28T12:00:00.000Z'); // 07:00 on 28-NOV in New York, 01:00 on 29-NOV in Auckland
const before = process.env.TZ;
afterEach(() => {
  if (before === undefined) delete process.env.TZ;
  else process.env.TZ = before;
});

describe.each(dialects)('the demo licenses on %s', (dialect) => {
  it.each([
    ['America/New_York', '28-NOV-2026', '2026-11-28T05:00:00.000Z'],
    ['Pacific/Auckland', '29-NOV-2026', '2026-11-28T11:00:00.000Z'],
    ['UTC', '28-NOV-2026', '2026-11-28T00:00:00.000Z'],
  ])('start "today" on the viewer’s day in %s: %s', async (zone, today, midnight) => {
    process.env.TZ = zone;
    const database = await createTestDatabase(dialect);
    try {
      await seedDemoData(database.db, NOW);
      const rows = await database.db.selectFrom('licenses').select(['license_name', 'date_valid_from', 'date_valid_until', 'days_valid', 'time_zone'])
        .where('license_name', 'in', ['Contoso Lab Evaluation', 'Contoso Test 2025 (renewal 1)', 'Northwind Evaluation']).orderBy('license_name').execute();
      const shown = rows.map((l) => [l.license_name, formatDate(l.date_valid_from), formatLastValidDay(l.date_valid_until), l.time_zone]);
      // Today's two, and tomorrow's; each ends at the viewer's midnight, its days later.
      expect(shown).toEqual([
        ['Contoso Lab Evaluation', today, formatDate(Date.parse(midnight) + 19.5 * 86_400_000), zone],
        ['Contoso Test 2025 (renewal 1)', today, expect.stringMatching(/^\d\d-[A-Z]{3}-2027$/), zone],
        ['Northwind Evaluation', formatDate(Date.parse(midnight) + 30 * 3_600_000), expect.stringMatching(/^\d\d-DEC-2026$/), zone],
      ]);
      expect(rows[0].date_valid_from).toBe(midnight);
    } finally {
      await database.drop();
    }
  });
});
