/**
 * Bulk actions on certificates (issue 12 item 4, "bulk actions with mixed allowed and refused
 * items"): each item as its single call, refusals per item, one journal record per change, "all that
 * match" with the list's query, the count before confirming, and concurrent runs over the same items.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation, type Org } from '../../../test/support/factories';

const dialects = await testDialects();
const BULK = '/api/bulk/certificates';

describe.each(dialects)('certificate bulk actions on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });

  /**
   * Two customers of the partner: the actor supervises `own` and is only a member of `readOnly`;
   * `foreign` belongs to another partner, out of the actor's sight.
   */
  async function world() {
    const own = await make.organization({ parent: w.partner });
    const readOnly = await make.organization({ parent: w.partner });
    const otherPartner = await make.organization({ role: 'PARTNER', parent: w.operator });
    const foreign = await make.organization({ parent: otherPartner });
    const actor = await make.member(own, { role: 'SUPERVISOR', more: [{ organization: readOnly, role: 'MEMBER', scope: 'ORGANIZATION' }] });
    return { own, readOnly, foreign, actor: actor.email };
  }
  const key = (c: { organization: string; dn: string }) => ({ organization_id: c.organization, distinguished_name: c.dn });
  const journal = (org: Org) => t.db.selectFrom('audit_records').select(['reason', 'message']).where('organization_id', '=', org.id).execute();
  const rowsOf = (org: Org) => t.db.selectFrom('certificates').selectAll().where('organization_id', '=', org.id).orderBy('distinguished_name').execute();
  const post = (as: string | null, action: string, payload: unknown) => t.call(as, { method: 'POST', url: `${BULK}/${action}`, payload: payload as object });

  it('approves the allowed items and reports each refusal, without revealing a foreign one', async () => {
    const x = await world();
    const [a, b] = [await make.certificate(x.own, 'requested'), await make.certificate(x.own, 'requested')];
    const approved = await make.certificate(x.own, 'approved');
    const notMine = await make.certificate(x.readOnly, 'requested');
    const foreign = await make.certificate(x.foreign, 'requested');
    const [readOnlyBefore, foreignBefore] = [await rowsOf(x.readOnly), await rowsOf(x.foreign)];
    const items = [key(a), key(approved), key(notMine), key(foreign), { organization_id: x.own.id, distinguished_name: 'CN=nothing here' }, key(b)];

    const res = await post(x.actor, 'approve', { items });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ done: 2, refused: 4, failed: 0, remaining: null });
    expect(body.results.map((r: { outcome: string; status: number }) => [r.outcome, r.status])).toEqual([
      ['done', 200], ['refused', 409], ['refused', 403], ['refused', 404], ['refused', 404], ['done', 200],
    ]);
    expect(body.results[1].message).toBe('The certificate is already approved.');
    // A foreign certificate reads exactly as one that does not exist.
    expect(body.results[3].message).toBe(body.results[4].message);
    expect(body.results.map((r: { distinguished_name: string }) => r.distinguished_name)).toEqual(items.map((i) => i.distinguished_name));

    const records = (await journal(x.own)).filter((r) => r.reason === 'CERTIFICATE_APPROVED');
    expect(records.map((r) => r.message).sort()).toEqual([`Approved certificate ${a.dn}.`, `Approved certificate ${b.dn}.`].sort());
    const rows = await rowsOf(x.own);
    expect(rows.find((r) => r.distinguished_name === a.dn)?.date_approved).not.toBeNull();
    expect(await rowsOf(x.readOnly)).toEqual(readOnlyBefore);
    expect(await rowsOf(x.foreign)).toEqual(foreignBefore);
    expect(await journal(x.readOnly)).toEqual([]);
    expect(await journal(x.foreign)).toEqual([]);
  });

  it('revokes and acknowledges expiries item by item with the state each needs (409 otherwise)', async () => {
    const x = await world();
    const [valid, revoked, expired, acknowledged] = [
      await make.certificate(x.own, 'approved'), await make.certificate(x.own, 'revoked'),
      await make.certificate(x.own, 'expired'), await make.certificate(x.own, 'acknowledged'),
    ];
    const revoke = (await post(x.actor, 'revoke', { items: [key(valid), key(revoked)] })).json();
    expect(revoke.results.map((r: { status: number; message: string }) => [r.status, r.message])).toEqual([[200, 'Revoked.'], [409, 'The certificate is already revoked.']]);
    const acknowledge = (await post(x.actor, 'acknowledge-expiry', { items: [key(expired), key(acknowledged)] })).json();
    expect(acknowledge.results.map((r: { status: number; message: string }) => [r.status, r.message])).toEqual([[200, 'Expiry acknowledged.'], [409, 'The expiry is already acknowledged.']]);
    const reasons = (await journal(x.own)).map((r) => r.reason).sort();
    expect(reasons).toEqual(['CERTIFICATE_EXPIRY_ACKNOWLEDGED', 'CERTIFICATE_REVOKED']);
  });

  it('counts all that match before confirming, then acts on those the action applies to and the caller may act on', async () => {
    const x = await world();
    const gateways = [await make.certificate(x.own, 'requested', { cn: 'gw-bulk-1.example' }), await make.certificate(x.own, 'requested', { cn: 'gw-bulk-2.example' })];
    await make.certificate(x.own, 'approved', { cn: 'gw-bulk-3.example' });
    const other = await make.certificate(x.own, 'requested', { cn: 'db-bulk-1.example' });
    const notMine = await make.certificate(x.readOnly, 'requested', { cn: 'gw-bulk-4.example' });

    // One organization's list, filtered by name: 3 match, 2 can be approved.
    const preview = await t.call(x.actor, { method: 'GET', url: `${BULK}/approve/preview?organization_id=${x.own.id}&name=gw-bulk` });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ matching: 3, actionable: 2, limit: 1000 });
    // The admin list across the actor's organizations: the read-only one's rows match but are not the actor's to approve.
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/approve/preview?name=gw-bulk` })).json()).toEqual({ matching: 4, actionable: 2, limit: 1000 });
    // Hide requests: nothing left to approve.
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/approve/preview?name=gw-bulk&hideRequests=true` })).json()).toMatchObject({ matching: 1, actionable: 0 });

    const res = await post(x.actor, 'approve', { match: { name: 'gw-bulk', sort: '-distinguished_name' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ done: 2, refused: 0, remaining: 0 });
    // In the list's order, as asked.
    expect(body.results.map((r: { distinguished_name: string }) => r.distinguished_name)).toEqual([gateways[1].dn, gateways[0].dn]);
    const approved = (await rowsOf(x.own)).filter((r) => r.date_approved).map((r) => r.distinguished_name);
    expect(approved).not.toContain(other.dn);
    expect((await rowsOf(x.readOnly)).find((r) => r.distinguished_name === notMine.dn)?.date_approved).toBeNull();
    expect((await journal(x.own)).filter((r) => r.reason === 'CERTIFICATE_APPROVED')).toHaveLength(2);
    // Again: nothing is left, nothing happens.
    expect((await post(x.actor, 'approve', { match: { name: 'gw-bulk' } })).json()).toMatchObject({ done: 0, results: [], remaining: 0 });
  });

  it('takes at most `limit` of all that match and says how many remain; acknowledges only expired ones', async () => {
    const x = await world();
    for (let i = 0; i < 3; i++) await make.certificate(x.own, 'expired');
    await make.certificate(x.own, 'approved'); // not expired: not waiting for an acknowledgement
    const match = { organization_id: x.own.id };
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/acknowledge-expiry/preview?organization_id=${x.own.id}` })).json()).toMatchObject({ matching: 4, actionable: 3 });
    expect((await post(x.actor, 'acknowledge-expiry', { match, limit: 2 })).json()).toMatchObject({ done: 2, remaining: 1 });
    expect((await post(x.actor, 'acknowledge-expiry', { match })).json()).toMatchObject({ done: 1, remaining: 0 });
    expect((await journal(x.own)).filter((r) => r.reason === 'CERTIFICATE_EXPIRY_ACKNOWLEDGED')).toHaveLength(3);
  });

  it('approves each item exactly once when two bulk approvals of the same items run at once', async () => {
    const x = await world();
    const certificates = await Promise.all(Array.from({ length: 12 }, () => make.certificate(x.own, 'requested')));
    const items = certificates.map(key);
    const [first, second] = await Promise.all([post(x.actor, 'approve', { items }), post(w.supervisor.email, 'approve', { match: { organization_id: x.own.id } })]);
    const bodies = [first.json(), second.json()];
    expect(bodies[0].done + bodies[1].done).toBe(12);
    for (const b of bodies) for (const r of b.results) if (r.outcome === 'refused') expect(r.status).toBe(409);
    const records = (await journal(x.own)).filter((r) => r.reason === 'CERTIFICATE_APPROVED');
    expect(records).toHaveLength(12);
    expect(new Set(records.map((r) => r.message)).size).toBe(12);
  });

  it('answers 401 without a token, 404 for a foreign organization, 403 where the caller may not act, 400 for bad input, writing nothing', async () => {
    const x = await world();
    const c = await make.certificate(x.own, 'requested');
    const before = await rowsOf(x.own);
    expect((await post(null, 'approve', { items: [key(c)] })).statusCode).toBe(401);
    expect((await t.call(null, { method: 'GET', url: `${BULK}/approve/preview` })).statusCode).toBe(401);

    const foreign = await post(x.actor, 'approve', { match: { organization_id: x.foreign.id } });
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Organization not found.']);
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/approve/preview?organization_id=${x.foreign.id}` })).statusCode).toBe(404);
    // Readable, not approvable there: the single call's 403; the preview counts and offers nothing.
    expect((await post(x.actor, 'approve', { match: { organization_id: x.readOnly.id } })).statusCode).toBe(403);
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/approve/preview?organization_id=${x.readOnly.id}` })).json()).toMatchObject({ actionable: 0 });
    // A member of the organization may not approve anything there: every item is refused.
    const member = await make.member(x.own, { role: 'MEMBER' });
    expect((await post(member.email, 'approve', { items: [key(c)] })).json()).toMatchObject({ done: 0, refused: 1, results: [{ status: 403 }] });

    const bad: Array<[string, unknown, string | undefined]> = [
      ['approve', {}, 'items'],
      ['approve', { items: [key(c)], match: {} }, 'items'],
      ['approve', { items: [] }, 'items'],
      ['approve', { items: [key(c), key(c)] }, 'items'],
      ['approve', { items: Array.from({ length: 1001 }, (_, i) => ({ organization_id: x.own.id, distinguished_name: `CN=${i}` })) }, 'items'],
      ['approve', { items: [key(c)], limit: 5 }, 'limit'],
      ['approve', { match: { hideExpired: true } }, 'match'],
      ['approve', { match: { sort: 'description' } }, 'match'],
      ['approve', { match: { nonsense: 'x' } }, undefined],
      ['approve', { items: [key(c)], extra: 1 }, 'extra'],
      ['remove', { items: [key(c)] }, 'action'],
    ];
    for (const [action, payload, field] of bad) {
      const res = await post(x.actor, action, payload);
      expect(res.statusCode, `${action} ${JSON.stringify(payload).slice(0, 100)}: ${res.body}`).toBe(400);
      if (field) expect(String(res.json().field).split('.')[0]).toBe(field);
    }
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/approve/preview?sort=nothing` })).statusCode).toBe(400);
    expect(await rowsOf(x.own)).toEqual(before);
    expect(await journal(x.own)).toEqual([]);
  });
});
