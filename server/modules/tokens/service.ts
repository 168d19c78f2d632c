/**
 * Gateway tokens (issue 34 item 3): made, listed and revoked by the operator staff the policy names
 * (admin.token, token.list, token.revoke); each change journaled in its own transaction.
 */
import type { FastifyInstance } from 'fastify';
import { canOnOperator } from '../../../common/policy';
import type { ApiToken, TokenRequest, TokenStatus } from '../../../common/schemas/token';
import type { RequestActor } from '../../auth/actor';
import { authorizeOperator } from '../../access/authorize';
import { TOKEN_REFUSAL, TOKENS_REFUSAL } from '../../access/target-guard';
import { audit } from '../../db/audit';
import { conflict, notFound } from '../../errors';
import { signApiToken } from './api-tokens';
import { findToken, insertToken, listTokens, revokeToken as revokeRow } from './repository';

const MISSING = 'Token not found.';

/** Signs a token and records it with its journal record; the text is returned, never stored. */
export async function createToken(api: FastifyInstance, actor: RequestActor, request: TokenRequest): Promise<string> {
  const operator = authorizeOperator(actor, 'admin.token', TOKEN_REFUSAL);
  const { upn, groups, expires_in: days } = request;
  // Old clients send no name: the upn names the token (docs/decisions.md "API tokens").
  const name = request.name ?? upn;
  const { token, id, issuedAt, expiresAt } = await signApiToken(api, { upn, groups, expiresInDays: days });
  const now = api.now();
  await api.db.transaction().execute(async (tx) => {
    await insertToken(tx, {
      token_id: id, token_name: name, upn, groups: JSON.stringify(groups), organization_id: operator, created_by: actor.email,
      date_created: issuedAt.toISOString(), date_expires: expiresAt.toISOString(), date_last_used: null, date_revoked: null, revoked_by: null,
    });
    await audit(tx, {
      reason: 'TOKEN_CREATED',
      message: `Created API token ${id} "${name}" for ${upn} (groups ${groups.join(', ')}, valid ${days} days).`,
      organization_id: operator,
      member_email: actor.email,
      now,
      subject: { type: 'token', id, details: { name, upn, expires_in_days: days } },
    });
  });
  return token;
}

type Row = NonNullable<Awaited<ReturnType<typeof findToken>>>;

function statusOf(row: Row, now: Date): TokenStatus {
  if (row.date_revoked) return 'revoked';
  // Expired from exp on, as the verification says (exp is exclusive).
  return new Date(row.date_expires).getTime() <= now.getTime() ? 'expired' : 'active';
}

function shown(row: Row, now: Date, mayRevoke: boolean): ApiToken {
  return {
    token_id: row.token_id, name: row.token_name, upn: row.upn, groups: JSON.parse(row.groups) as string[], created_by: row.created_by,
    date_created: row.date_created, date_expires: row.date_expires, date_last_used: row.date_last_used,
    date_revoked: row.date_revoked, revoked_by: row.revoked_by, status: statusOf(row, now),
    // An expired token may still be revoked: the clock of a gateway's host is not the portal's concern.
    abilities: mayRevoke && !row.date_revoked ? ['token.revoke'] : [],
  };
}

export async function listApiTokens(api: FastifyInstance, actor: RequestActor): Promise<ApiToken[]> {
  authorizeOperator(actor, 'token.list', TOKENS_REFUSAL);
  const now = api.now();
  const mayRevoke = canOnOperator(actor, 'token.revoke');
  return (await listTokens(api.db)).map((row) => shown(row, now, mayRevoke));
}

/**
 * Revokes one token: the row is marked, which moves the export epoch, so every instance looks the token up
 * again at its next poll and answers 401. Of two revocations at once one wins; the other is told 409.
 */
export async function revokeApiToken(api: FastifyInstance, actor: RequestActor, tokenId: string): Promise<ApiToken> {
  const operator = authorizeOperator(actor, 'token.revoke', TOKENS_REFUSAL);
  const now = api.now();
  return api.db.transaction().execute(async (tx) => {
    const row = await findToken(tx, tokenId);
    if (!row) throw notFound(MISSING);
    if (!(await revokeRow(tx, tokenId, actor.email, now.toISOString()))) {
      throw conflict(`The token "${row.token_name}" is already revoked.`);
    }
    await audit(tx, {
      reason: 'TOKEN_REVOKED',
      message: `Revoked API token ${tokenId} "${row.token_name}" for ${row.upn}.`,
      organization_id: operator,
      member_email: actor.email,
      now,
      subject: { type: 'token', id: tokenId, details: { name: row.token_name, upn: row.upn } },
    });
    return shown({ ...row, date_revoked: now.toISOString(), revoked_by: actor.email }, now, false);
  });
}
