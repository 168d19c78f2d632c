/**
 * Vendor support access (issue 33 item 2): GET/POST /organizations/{id}/support-access, POST …/{requestId}/approve,
 * …/deny, …/end, PUT …/settings, GET …/active (the banners), and GET /support-access (the support person's own).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activeSupportListSchema, mySupportSchema, supportListSchema, supportRequestBodySchema, supportRequestSchema, supportSettingsBodySchema,
  supportSettingsSchema,
} from '../../../common/schemas/support-access';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import * as service from './service';

const tags = ['support-access'];
const org = z.object({ id: idText() });
const one = org.extend({ requestId: idText(20) });

export const supportAccessRoutes: FastifyPluginAsyncZod = async (api) => {
  const base = '/organizations/:id/support-access';
  /**
   * The tenant boundary before the input (access/target-guard.ts leaves these routes to this): the service's own
   * refusal before the body is parsed, so a caller who may not act is refused alike whatever it sends.
   */
  const early = async (request: FastifyRequest) => {
    if (request.actor) await service.checkSupportRoute(api.db, request.actor, request.routeOptions.url ?? '', request.params as Record<string, string>);
  };

  api.get(base, {
    schema: {
      summary: "An organization's support access requests and its auto-approval setting", operationId: 'listSupportAccess', tags, params: org,
      description: 'The organization\'s administrators see every request; the vendor\'s support staff (SUPERVISOR, DEVOPS of the operator) see their own.',
      response: { 200: supportListSchema },
    },
  }, async (request) => service.listRequests(api.db, actorOf(request), request.params.id, api.now()));

  api.post(base, {
    onRequest: early,
    schema: {
      summary: 'Ask for support access to an organization (or take it by break glass)', operationId: 'requestSupportAccess', tags, params: org,
      body: supportRequestBodySchema, response: { 201: supportRequestSchema },
      description: 'By the operator\'s SUPERVISOR (up to ADMINISTRATOR) and DEVOPS (up to ISSUER). Waits for the organization\'s administrators unless it '
        + 'approves automatically up to its maximum. `break_glass: true` (SUPERVISOR only, at most 4 hours) is active at once without consent and '
        + 'tells the organization\'s administrators by notice, mail and every webhook. 409 while the caller has a request there that waits or runs.',
    },
  }, async (request, reply) => reply.status(201).send(await service.requestAccess(api.db, actorOf(request), request.params.id, request.body, api.now())));

  api.get(`${base}/active`, {
    schema: {
      summary: 'The support accesses that run now in an organization (its banners)', operationId: 'listActiveSupportAccess', tags, params: org,
      response: { 200: activeSupportListSchema },
    },
  }, async (request) => service.activeAccesses(api.db, actorOf(request), request.params.id, api.now()));

  api.put(`${base}/settings`, {
    onRequest: early,
    schema: {
      summary: 'Set whether support access is approved automatically, and up to how many hours', operationId: 'saveSupportAccessSettings', tags, params: org,
      body: supportSettingsBodySchema, response: { 200: supportSettingsSchema },
    },
  }, async (request) => service.saveSettings(api.db, actorOf(request), request.params.id, request.body, api.now()));

  for (const decision of ['approve', 'deny'] as const) {
    api.post(`${base}/:requestId/${decision}`, {
      onRequest: early,
      schema: {
        summary: decision === 'approve' ? 'Approve a support access request: it runs at once, for its hours' : 'Deny a support access request',
        operationId: decision === 'approve' ? 'approveSupportAccess' : 'denySupportAccess', tags, params: one, response: { 200: supportRequestSchema },
        description: 'By the organization\'s own administrators or its partner\'s, never the requester. 409 when it no longer waits (decided, ended, or the other of two decisions at once).',
      },
    }, async (request) => service.decide(api.db, actorOf(request), request.params.id, request.params.requestId, decision, api.now()));
  }

  api.post(`${base}/:requestId/end`, {
    onRequest: early,
    schema: {
      summary: 'End a support access now (or withdraw a request)', operationId: 'endSupportAccess', tags, params: one, response: { 200: supportRequestSchema },
      description: 'By the organization\'s administrators or the support person; refused from the next call on, on every instance. 409 when it has already ended, expired or been denied.',
    },
  }, async (request) => service.endAccess(api.db, actorOf(request), request.params.id, request.params.requestId, api.now()));

  api.get('/support-access', {
    schema: {
      summary: 'The caller\'s own support access requests in every organization, and the organizations it may ask', operationId: 'listMySupportAccess', tags,
      response: { 200: mySupportSchema },
    },
  }, async (request) => service.myRequests(api.db, actorOf(request), api.now()));
};
