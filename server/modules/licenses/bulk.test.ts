/**
 * Bulk actions on licenses (issue 12 item 4, "bulk actions with mixed allowed and refused items"):
 * approve as requested, reject and 'No renew' many at once, each as its single call (version lock
 * included), refusals per item, one journal record per change, "all that match", concurrency.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, type Cooperation, type Org } from '../../../test/support/factories';

const dialects = await testDialects();
const BULK = '/api/bulk/licenses';

describe.each(dialects)('license bulk actions on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });

  /** The actor supervises `own`, is a member of `readOnly`; `foreign` is another partner's customer. */
  async function world() {
    const own = await make.organization({ parent: w.partner });
    const readOnly = await make.organization({ parent: w.partner });
    const otherPartner = await make.organization({ role: 'PARTNER', parent: w.operator });
    const foreign = await make.organization({ parent: otherPartner });
    const actor = await make.member(own, { role: 'SUPERVISOR', more: [{ organization: readOnly, role: 'MEMBER', scope: 'ORGANIZATION' }] });
    return { own, readOnly, foreign, actor: actor.email };
  }
  const journal = (org: Org) => t.db.selectFrom('audit_records').select(['reason', 'message']).where('organization_id', '=', org.id).execute();
  const rowsOf = (org: Org) => t.db.selectFrom('licenses').selectAll().where('organization_id', '=', org.id).orderBy('license_id').execute();
  const post = (as: string | null, action: string, payload: unknown) => t.call(as, { method: 'POST', url: `${BULK}/${action}`, payload: payload as object });
  const outcomes = (body: { results: Array<{ status: number; message: string }> }) => body.results.map((r) => [r.status, r.message]);

  it('approves the allowed requests as requested and reports each refusal, a stale version too', async () => {
    const x = await world();
    const [a, b, stale] = [await make.license(x.own, 'requested', { note: 'keep me' }), await make.license(x.own, 'requested'), await make.license(x.own, 'requested')];
    const rejected = await make.license(x.own, 'rejected');
    const notMine = await make.license(x.readOnly, 'requested');
    const foreign = await make.license(x.foreign, 'requested');
    const [readOnlyBefore, foreignBefore] = [await rowsOf(x.readOnly), await rowsOf(x.foreign)];

    const res = await post(x.actor, 'approve', {
      items: [{ license_id: a.id, version: a.version }, { license_id: rejected.id }, { license_id: notMine.id }, { license_id: foreign.id }, { license_id: stale.id, version: stale.version + 1 }, { license_id: b.id }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ done: 2, refused: 4, failed: 0, remaining: null });
    expect(outcomes(body)).toEqual([
      [200, 'Approved.'], [409, 'A rejected license cannot be approved.'], [403, 'Your roles do not allow this here.'], [404, 'License not found.'],
      [409, `The license was changed meanwhile (version ${stale.version}, you sent ${stale.version + 1}). Reload it and try again.`], [200, 'Approved.'],
    ]);
    // Names only of what was done: a refused id tells nothing more.
    expect(body.results.map((r: { license_name: string | null }) => r.license_name)).toEqual([a.name, null, null, null, null, b.name]);

    const row = (await rowsOf(x.own)).find((l) => l.license_id === a.id)!;
    expect(row).toMatchObject({ note: 'keep me', date_valid_from: expect.any(String), version: a.version + 1 });
    expect(row.date_approved).not.toBeNull();
    const records = (await journal(x.own)).filter((r) => r.reason === 'LICENSE_APPROVED').map((r) => r.message).sort();
    expect(records).toEqual([`Approved license ${a.name}.`, `Approved license ${b.name}.`].sort());
    expect(await rowsOf(x.readOnly)).toEqual(readOnlyBefore);
    expect(await rowsOf(x.foreign)).toEqual(foreignBefore);
    expect(await journal(x.foreign)).toEqual([]);
  });

  it('rejects requests and acknowledges expiries, each in the state it needs', async () => {
    const x = await world();
    const [request, approved, expired, running] = [
      await make.license(x.own, 'requested'), await make.license(x.own, 'approved'), await make.license(x.own, 'expired'), await make.license(x.own, 'approved'),
    ];
    expect(outcomes((await post(x.actor, 'reject', { items: [{ license_id: request.id }, { license_id: approved.id }] })).json()))
      .toEqual([[200, 'Rejected.'], [409, 'The license is already approved.']]);
    expect(outcomes((await post(x.actor, 'acknowledge-expiry', { items: [{ license_id: expired.id }, { license_id: running.id }] })).json()))
      .toEqual([[200, 'Expiry acknowledged (no renewal).'], [409, 'The license has not expired yet.']]);
    expect((await journal(x.own)).map((r) => r.reason).sort()).toEqual(['LICENSE_EXPIRY_ACKNOWLEDGED', 'LICENSE_REJECTED']);
  });

  it('counts all that match before confirming, then acts on those the action applies to', async () => {
    const x = await world();
    await make.license(x.own, 'requested', { name: `Lab bulk A ${x.own.id}` });
    await make.license(x.own, 'requested', { name: `Lab bulk B ${x.own.id}` });
    await make.license(x.own, 'approved', { name: `Lab bulk C ${x.own.id}` });
    await make.license(x.readOnly, 'requested', { name: `Lab bulk D ${x.own.id}` });
    const name = encodeURIComponent(`bulk`);
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/reject/preview?organization_id=${x.own.id}&name=${name}` })).json()).toEqual({ matching: 3, actionable: 2, limit: 1000 });
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/approve/preview?name=${name}` })).json()).toEqual({ matching: 4, actionable: 2, limit: 1000 });

    const body = (await post(x.actor, 'approve', { match: { name: 'bulk', sort: 'license_name' } })).json();
    expect(body).toMatchObject({ done: 2, refused: 0, remaining: 0 });
    expect(body.results.map((r: { license_name: string }) => r.license_name)).toEqual([`Lab bulk A ${x.own.id}`, `Lab bulk B ${x.own.id}`]);
    expect((await journal(x.own)).filter((r) => r.reason === 'LICENSE_APPROVED')).toHaveLength(2);
    expect((await journal(x.readOnly))).toEqual([]);
  });

  it('approves each license exactly once when two bulk approvals run at once', async () => {
    const x = await world();
    const licenses = await Promise.all(Array.from({ length: 12 }, () => make.license(x.own, 'requested')));
    const items = licenses.map((l) => ({ license_id: l.id }));
    const [first, second] = await Promise.all([post(x.actor, 'approve', { items }), post(w.supervisor.email, 'approve', { match: { organization_id: x.own.id } })]);
    const bodies = [first.json(), second.json()];
    expect(bodies[0].done + bodies[1].done).toBe(12);
    for (const b of bodies) for (const r of b.results) if (r.outcome === 'refused') expect(r.status).toBe(409);
    const records = (await journal(x.own)).filter((r) => r.reason === 'LICENSE_APPROVED');
    expect(records).toHaveLength(12);
    expect(new Set(records.map((r) => r.message)).size).toBe(12);
  });

  it('answers 401, 404, 403 and 400 as the lists and single calls do, writing nothing', async () => {
    const x = await world();
    const l = await make.license(x.own, 'requested');
    const before = await rowsOf(x.own);
    expect((await post(null, 'approve', { items: [{ license_id: l.id }] })).statusCode).toBe(401);
    expect((await t.call(null, { method: 'GET', url: `${BULK}/approve/preview` })).statusCode).toBe(401);
    expect((await post(x.actor, 'approve', { match: { organization_id: x.foreign.id } })).statusCode).toBe(404);
    expect((await t.call(x.actor, { method: 'GET', url: `${BULK}/reject/preview?organization_id=${x.foreign.id}` })).statusCode).toBe(404);
    expect((await post(x.actor, 'reject', { match: { organization_id: x.readOnly.id } })).statusCode).toBe(403);
    for (const [action, payload] of [
      ['approve', {}], ['approve', { items: [{ license_id: l.id }, { license_id: l.id }] }], ['approve', { items: [{ license_id: l.id, version: 'one' }] }],
      ['approve', { items: [{ license_id: l.id, license_name: 'edited' }] }], ['renew', { items: [{ license_id: l.id }] }], ['approve', { match: { hideValid: 'yes' } }],
    ] as const) {
      const res = await post(x.actor, action, payload);
      expect(res.statusCode, `${action} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
    }
    expect(await rowsOf(x.own)).toEqual(before);
    expect(await journal(x.own)).toEqual([]);
  });
});
