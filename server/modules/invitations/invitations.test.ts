import { beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/support/databases';
import { useTestApp } from '../../../test/support/test-app';
import { factories, uniqueTag, type Cooperation, type Org } from '../../../test/support/factories';
import { INVITATION_MS } from '../../../common/invitations';
import { dispatchEvents } from '../notifications/dispatch';

const dialects = await testDialects();

describe.each(dialects)('invitations API on %s', (dialect) => {
  const t = useTestApp(dialect, { demo: false });
  const make = factories(t);
  let w: Cooperation;
  beforeAll(async () => {
    w = await make.cooperation();
  });
  const url = (org: Org) => `/api/organizations/${org.id}/invitations`;
  const outsider = () => `outsider-${uniqueTag()}@elsewhere.example`;
  const invite = (as: string, org: Org, body: Record<string, unknown>) => t.call(as, { method: 'POST', url: url(org), payload: body });
  const signIn = (email: string) => t.call(email, { method: 'GET', url: '/api/auth/callback' });
  const memberOf = (email: string) =>
    t.db.selectFrom('members').select(['member_id', 'organization_id']).where('member_email', '=', email).executeTakeFirst();
  const rolesOf = async (email: string) => {
    const member = await memberOf(email);
    if (!member) return [];
    return t.db.selectFrom('role_assignments').select(['organization_id', 'role', 'scope']).where('member_id', '=', member.member_id).execute();
  };
  const records = (organizationId: string, reason: string) =>
    t.db.selectFrom('audit_records').select('message').where('organization_id', '=', organizationId).where('reason', '=', reason).execute();
  const counts = async () => ({
    invitations: Number((await t.db.selectFrom('invitations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    journal: Number((await t.db.selectFrom('audit_records').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  });

  it('invites an outsider, mails the sign-in link, and makes them a member with exactly the invited role when they sign in', async () => {
    const email = outsider();
    const res = await invite(w.partnerAdmin.email, w.partner, { email: email.toUpperCase(), role: 'ISSUER', scope: 'ORGANIZATION' });
    expect(res.statusCode, res.body).toBe(201);
    const invitation = res.json();
    expect(invitation).toMatchObject({ email, role: 'ISSUER', scope: 'ORGANIZATION', status: 'PENDING', invited_by: w.partnerAdmin.email, abilities: ['member.invite'] });
    expect(invitation.date_expires).toBe(new Date(t.clock.now().getTime() + INVITATION_MS).toISOString());
    expect((await records(w.partner.id, 'INVITATION_SENT')).map((r) => r.message)).toContain(`Invited ${email} to join as ISSUER (ORGANIZATION).`);

    await dispatchEvents(t.db, t.clock.now(), { publicUrl: 'https://portal.example', mail: true });
    const mail = await t.db.selectFrom('mail_outbox').selectAll().where('recipients', '=', JSON.stringify([email])).executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`[Customer Portal] Invitation to ${w.partner.name}`);
    expect(mail.text_body).toContain('https://portal.example/login');
    expect(mail.text_body).toContain(`as Issuer (Organization)`);
    expect(mail.text_body).toContain('22-MAR-2026 10:00:00 UTC');

    const list = await t.call(w.partnerAdmin.email, { method: 'GET', url: url(w.partner) });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((i: { email: string }) => i.email)).toContain(email);

    expect((await signIn(email)).statusCode).toBe(200);
    expect((await memberOf(email))?.organization_id).toBe(w.partner.id);
    expect(await rolesOf(email)).toEqual([{ organization_id: w.partner.id, role: 'ISSUER', scope: 'ORGANIZATION' }]);
    expect((await records(w.partner.id, 'INVITATION_ACCEPTED')).filter((r) => r.message.startsWith(email))).toHaveLength(1);

    // Accepting twice does nothing: a second sign-in is an ordinary one.
    expect((await signIn(email)).statusCode).toBe(200);
    expect(await rolesOf(email)).toHaveLength(1);
    expect((await records(w.partner.id, 'INVITATION_ACCEPTED')).filter((r) => r.message.startsWith(email))).toHaveLength(1);
    const all = await t.call(w.partnerAdmin.email, { method: 'GET', url: `${url(w.partner)}?status=all` });
    expect(all.json().find((i: { invitation_id: string }) => i.invitation_id === invitation.invitation_id).status).toBe('ACCEPTED');
    // Open invitations (the default) leave the accepted one out.
    expect(list.headers['x-total-count']).toBeDefined();
    const open = await t.call(w.partnerAdmin.email, { method: 'GET', url: url(w.partner) });
    expect(open.json().some((i: { invitation_id: string }) => i.invitation_id === invitation.invitation_id)).toBe(false);
  });

  it('comes before a trusted domain: the invited role, not MEMBER', async () => {
    const email = `newcomer-${uniqueTag()}@${w.customer.domain}`;
    expect((await invite(w.partnerAdmin.email, w.customer, { email, role: 'ISSUER', scope: 'ORGANIZATION' })).statusCode).toBe(201);
    expect((await signIn(email)).statusCode).toBe(200);
    expect(await rolesOf(email)).toEqual([{ organization_id: w.customer.id, role: 'ISSUER', scope: 'ORGANIZATION' }]);
  });

  it('expires after 7 days: accepted at t-1ms, not at t or t+1ms', async () => {
    const emails = [outsider(), outsider(), outsider()];
    for (const email of emails) expect((await invite(w.supervisor.email, w.partner, { email, role: 'MEMBER', scope: 'ORGANIZATION' })).statusCode).toBe(201);
    const expires = t.clock.now().getTime() + INVITATION_MS;
    const answers: number[] = [];
    for (const [i, offset] of [-1, 0, 1].entries()) {
      t.clock.set(new Date(expires + offset));
      answers.push((await signIn(emails[i])).statusCode);
    }
    expect(answers).toEqual([200, 403, 403]);
    expect(await memberOf(emails[1])).toBeUndefined();
    expect(await memberOf(emails[2])).toBeUndefined();
    const list = await t.call(w.supervisor.email, { method: 'GET', url: url(w.partner) });
    expect(list.json().find((i: { email: string }) => i.email === emails[1]).status).toBe('EXPIRED');
  });

  it('resends with a renewed expiry, also once expired, and journals it', async () => {
    const email = outsider();
    const made = (await invite(w.partnerAdmin.email, w.partner, { email, role: 'MEMBER', scope: 'ORGANIZATION' })).json();
    t.clock.advanceDays(8);
    const resent = await t.call(w.partnerAdmin.email, { method: 'POST', url: `${url(w.partner)}/${made.invitation_id}/resend` });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'PENDING', date_sent: t.clock.now().toISOString(), date_expires: new Date(t.clock.now().getTime() + INVITATION_MS).toISOString() });
    expect((await records(w.partner.id, 'INVITATION_RESENT')).map((r) => r.message)).toContain(`Resent the invitation of ${email} as MEMBER (ORGANIZATION).`);
    expect((await signIn(email)).statusCode).toBe(200);
  });

  it('revokes: signing in then does nothing, and a revoked invitation is neither revoked nor resent again', async () => {
    const email = outsider();
    const made = (await invite(w.partnerAdmin.email, w.partner, { email, role: 'MEMBER', scope: 'ORGANIZATION' })).json();
    const at = `${url(w.partner)}/${made.invitation_id}`;
    expect((await t.call(w.partnerAdmin.email, { method: 'DELETE', url: at })).statusCode).toBe(204);
    expect((await records(w.partner.id, 'INVITATION_REVOKED')).map((r) => r.message)).toContain(`Revoked the invitation of ${email} as MEMBER (ORGANIZATION).`);
    const refused = await signIn(email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().redirect).toBe('AuthWelcome');
    expect(await memberOf(email)).toBeUndefined();
    const again = await t.call(w.partnerAdmin.email, { method: 'DELETE', url: at });
    expect([again.statusCode, again.json().message]).toEqual([409, `This invitation of ${email} was revoked; invite them again.`]);
    expect((await t.call(w.partnerAdmin.email, { method: 'POST', url: `${at}/resend` })).statusCode).toBe(409);
    expect((await t.call(w.partnerAdmin.email, { method: 'DELETE', url: `${url(w.partner)}/no-such-invitation` })).statusCode).toBe(404);
    // Invited again after a revoke: a new invitation.
    expect((await invite(w.partnerAdmin.email, w.partner, { email, role: 'MEMBER', scope: 'ORGANIZATION' })).statusCode).toBe(201);
  });

  it('refuses bad input with a clear 400, 403 or 409 and stores nothing', async () => {
    const taken = outsider();
    expect((await invite(w.partnerAdmin.email, w.partner, { email: taken, role: 'MEMBER', scope: 'ORGANIZATION' })).statusCode).toBe(201);
    const cases: Array<[string, string, Org, Record<string, unknown>, number, RegExp]> = [
      ['a bad email', w.partnerAdmin.email, w.partner, { email: 'not-an-address', role: 'MEMBER', scope: 'ORGANIZATION' }, 400, /email/],
      ['an unknown role', w.partnerAdmin.email, w.partner, { email: outsider(), role: 'OWNER', scope: 'ORGANIZATION' }, 400, /role/],
      ['an unknown scope', w.partnerAdmin.email, w.partner, { email: outsider(), role: 'MEMBER', scope: 'EVERYWHERE' }, 400, /scope/],
      ['an unknown field', w.partnerAdmin.email, w.partner, { email: outsider(), role: 'MEMBER', scope: 'ORGANIZATION', note: 'x' }, 400, /note/],
      ['an operator role outside the operator', w.supervisor.email, w.partner, { email: outsider(), role: 'APPROVER', scope: 'ORGANIZATION' }, 400, /only to members of the operator/],
      ['a role the inviter may not grant', w.operatorAdmin.email, w.operator, { email: outsider(), role: 'APPROVER', scope: 'ORGANIZATION' }, 403, /do not allow you to give APPROVER/],
      ['(allowed) the partner\'s administrator into its customer', w.partnerAdmin.email, w.customer, { email: outsider(), role: 'ISSUER', scope: 'ORGANIZATION' }, 201, /./],
      ['a caller who may not invite', w.partnerIssuer.email, w.partner, { email: outsider(), role: 'MEMBER', scope: 'ORGANIZATION' }, 403, /roles do not allow/],
      ['another tenant', w.issuer.email, w.operator, { email: outsider(), role: 'MEMBER', scope: 'ORGANIZATION' }, 404, /not found/],
      ['a member of the organization', w.partnerAdmin.email, w.partner, { email: w.partnerIssuer.email, role: 'MEMBER', scope: 'ORGANIZATION' }, 409, /already a member of Partner/],
      ['a member elsewhere', w.partnerAdmin.email, w.partner, { email: w.issuer.email, role: 'MEMBER', scope: 'ORGANIZATION' }, 409, /already a member of another organization/],
      ['an address invited already', w.partnerAdmin.email, w.partner, { email: taken.toUpperCase(), role: 'ISSUER', scope: 'ORGANIZATION' }, 409, /already invited .* until 22-MAR-2026 10:00:00 UTC; resend/],
      ['a banned organization', w.supervisor.email, w.banned, { email: outsider(), role: 'MEMBER', scope: 'ORGANIZATION' }, 409, /banned/],
    ];
    for (const [name, as, org, body, status, message] of cases) {
      const before = await counts();
      const res = await invite(as, org, body);
      expect([name, res.statusCode], res.body).toEqual([name, status]);
      if (status === 201) continue;
      expect(res.json().message, name).toMatch(message);
      expect(await counts(), name).toEqual(before);
    }
  });

  it('lists newest first with the total, and shows abilities only for the roles the caller may give', async () => {
    const approver = `approver-${uniqueTag()}@elsewhere.example`;
    expect((await invite(w.supervisor.email, w.operator, { email: approver, role: 'APPROVER', scope: 'COOPERATION' })).statusCode).toBe(201);
    t.clock.set(new Date(t.clock.now().getTime() + 1000));
    const issuer = outsider();
    expect((await invite(w.supervisor.email, w.operator, { email: issuer, role: 'ISSUER', scope: 'ORGANIZATION' })).statusCode).toBe(201);
    const res = await t.call(w.operatorAdmin.email, { method: 'GET', url: `${url(w.operator)}?limit=2` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.json().map((i: { email: string; abilities: string[] }) => [i.email, i.abilities])).toEqual([[issuer, ['member.invite']], [approver, []]]);
    // Nor may that administrator revoke or resend the approver's invitation.
    const theirs = res.json()[1].invitation_id;
    expect((await t.call(w.operatorAdmin.email, { method: 'DELETE', url: `${url(w.operator)}/${theirs}` })).statusCode).toBe(403);
    expect((await t.call(w.partnerIssuer.email, { method: 'GET', url: url(w.partner) })).statusCode).toBe(403);
  });

  it('decides a concurrent accept and revoke: exactly one wins', async () => {
    for (let i = 0; i < 6; i++) {
      const email = outsider();
      const made = (await invite(w.partnerAdmin.email, w.partner, { email, role: 'ISSUER', scope: 'ORGANIZATION' })).json();
      const [signedIn, revoked] = await Promise.all([
        signIn(email),
        t.call(w.partnerAdmin.email, { method: 'DELETE', url: `${url(w.partner)}/${made.invitation_id}` }),
      ]);
      const row = await t.db.selectFrom('invitations').selectAll().where('invitation_id', '=', made.invitation_id).executeTakeFirstOrThrow();
      if (signedIn.statusCode === 200) {
        expect([revoked.statusCode, row.date_revoked, row.date_accepted !== null]).toEqual([409, null, true]);
        expect(await rolesOf(email)).toEqual([{ organization_id: w.partner.id, role: 'ISSUER', scope: 'ORGANIZATION' }]);
      } else {
        expect([signedIn.statusCode, revoked.statusCode, row.date_accepted, await memberOf(email)]).toEqual([403, 204, null, undefined]);
      }
    }
  });
});
