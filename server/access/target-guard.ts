/**
 * The tenant boundary before the input (issue 9). A call whose path names an organization, or a
 * license or certificate of one, that the caller cannot read is answered 404, and a call of an
 * operator-only route by someone its rule refuses 403, before the body is parsed and the body and
 * query are validated. So a foreign target gets the same refusal whatever it is sent, never a 400
 * first that would hide a missing check (test/api/authorization-matrix.test.ts proves it).
 *
 * This only answers earlier what the services answer anyway, with the same status and message:
 * every service still authorizes its own action (access/authorize.ts). Routes that read no input (a
 * GET without a query) need no early answer and are left to their service.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import { authorize, authorizeGlobal, authorizeOperator } from './authorize';
import type { RequestActor } from '../auth/actor';
import { isPlainText } from '../../common/schemas/text';

/** The services' own answers for an id they do not show (their MISSING texts). */
const CERTIFICATE = 'Certificate not found.';
const MEMBER = 'Member not found.';
const LICENSE = 'License not found.';

/** The refusals of the operator-only routes outside the resources catalogue (their routes' texts). */
export const TOKEN_REFUSAL = 'Only SUPERVISOR or DEVOPS staff of the operator may create tokens.';
export const TOKENS_REFUSAL = 'Only SUPERVISOR or DEVOPS staff of the operator may list or revoke tokens.';
export const SECRET_REFUSAL = 'Only DevOps staff of the operator may provide the master secret.';
/** The refusal of the approval-mail preference (notifications/preferences.ts gives the same). */
export const PREFERENCES_REFUSAL = 'Only those who settle approvals (the operator\'s approvers and supervisors) choose how approval work is mailed to them.';
/** The refusal of the resources catalogue (resources/service.ts gives the same). */
export const CATALOGUE_REFUSAL = 'Only staff of the operator organization manage resources.';

type Guard = (db: Db, actor: RequestActor, params: Record<string, string>) => Promise<unknown> | void;

/**
 * The organization of a license or certificate. The path is not validated yet: an id that no text
 * field may hold (a NUL, which PostgreSQL refuses in a query) names nothing, so it is not looked up.
 */
const organizationOf = async (db: Db, table: 'licenses' | 'certificates', column: 'license_id' | 'distinguished_name', id: string) =>
  isPlainText(id) ? db.selectFrom(table).select('organization_id').where(column, '=', id).executeTakeFirst() : undefined;

/** The early check of a route, by its URL pattern; null for routes without a target of their own. */
function guardOf(url: string): Guard | null {
  // Vendor support staff ask for access to organizations they cannot read yet (issue 33): those routes make the same
  // early check with the support policy in their own onRequest hook (modules/support-access/routes.ts).
  if (url.startsWith('/api/organizations/:id/support-access')) return null;
  if (url.startsWith('/api/organizations/:id')) {
    // The path's organization; below it the same "not found" its service gives for the object.
    const missing = url.includes('/certificates/:dn') ? CERTIFICATE : /\/members\/:memberId(\/(?!certificates)|$)/.test(url) ? MEMBER : undefined;
    return (db, actor, params) => authorize(db, actor, 'read', params.id, missing);
  }
  if (url.startsWith('/api/licenses/:id')) {
    return async (db, actor, params) => authorize(db, actor, 'read', (await organizationOf(db, 'licenses', 'license_id', params.id))?.organization_id ?? '', LICENSE);
  }
  if (url.startsWith('/api/approve/:dn')) {
    return async (db, actor, params) =>
      authorize(db, actor, 'read', (await organizationOf(db, 'certificates', 'distinguished_name', params.dn))?.organization_id ?? '', CERTIFICATE);
  }
  if (url === '/api/resources' || url.startsWith('/api/resources/')) return (_db, actor) => authorizeGlobal(actor, 'resource.read', CATALOGUE_REFUSAL);
  if (url === '/api/notices/preferences') return (_db, actor) => authorizeGlobal(actor, 'approval.mail', PREFERENCES_REFUSAL);
  if (url === '/api/token') return (_db, actor) => void authorizeOperator(actor, 'admin.token', TOKEN_REFUSAL);
  if (url === '/api/tokens/:id') return (_db, actor) => void authorizeOperator(actor, 'token.revoke', TOKENS_REFUSAL);
  if (url === '/api/admin/mastersecret') return (_db, actor) => void authorizeOperator(actor, 'admin.secret', SECRET_REFUSAL);
  return null;
}

/** Adds the early check to the routes of `api`; register it after the auth hook (it needs the actor). */
export function registerTargetGuard(api: FastifyInstance): void {
  const guards = new Map<string, Guard | null>();
  api.addHook('onRequest', async (request: FastifyRequest) => {
    const { url, schema } = request.routeOptions;
    const readsInput = !['GET', 'HEAD'].includes(request.method) || !!schema?.querystring;
    if (!request.actor || !url || !readsInput) return;
    if (!guards.has(url)) guards.set(url, guardOf(url));
    await guards.get(url)?.(api.db, request.actor, request.params as Record<string, string>);
  });
}
