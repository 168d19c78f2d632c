/** A first run with demo data has something under the bell: what the last week would have told. */
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/test-app';
import { scanTime } from './scan';
import { dispatchEvents } from './dispatch';

describe('the demo data', () => {
  const t = useTestApp('sqlite');

  it("gives the demo people notices of the last week at the first scan: Contoso's expired gateway among them", async () => {
    expect(await scanTime(t.db, t.clock.now())).toBeGreaterThan(0);
    await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'http://localhost:8080', mail: false });
    const page = await t.call('issuer@contoso.example', { method: 'GET', url: '/api/notices' });
    expect(page.json().unread).toBeGreaterThan(0);
    expect(page.json().items.map((n: { title: string }) => n.title).join('\n')).toContain('CN=gw-munich.contoso.example');
  });
});
