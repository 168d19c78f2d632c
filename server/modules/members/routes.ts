/** Member and role routes (SPEC.md §7). Each handler calls one service function. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignQuery, memberExportQuery, memberListQuery, memberRoleSchema, memberSchema, memberStatusSchema, memberUpdateSchema, statusQuery, unassignQuery,
} from '../../../common/schemas/member';
import { csvResponse, sendCsv } from '../../http/csv';
import { banQuery } from '../../../common/schemas/organization';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import { sendPage } from '../../http/kept-answers';
import * as service from './service';
import * as roles from './roles';
import { signInStatus } from './status';

const org = z.object({ id: idText() });
const orgMember = org.extend({ memberId: idText() });
const one = { 200: memberSchema };
const roleList = { 200: z.array(memberRoleSchema) };

export const memberRoutes: FastifyPluginAsyncZod = async (api) => {
  const tags = ['members'];
  const at = '/organizations/:id/members/:memberId';

  api.get('/members', { config: { keep: { varies: 'member', over: 'all' } }, schema: { summary: 'List the members of the organizations the caller can see', operationId: 'listMembers', tags, querystring: memberListQuery, response: { 200: z.array(memberSchema) } } }, async (request, reply) => {
    return sendPage(reply, await service.listAllMembers(api.db, actorOf(request), request.query));
  });

  api.get('/members.csv', { schema: { summary: 'Export the members of the organizations the caller can see as CSV, with the list\'s filter and order', operationId: 'exportMemberList', tags, querystring: memberExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportAllMembers(api.db, actorOf(request), request.query, api.now)),
  );

  api.get('/organizations/:id/members.csv', { schema: { summary: 'Export the members of an organization as CSV, with the list\'s filter and order', operationId: 'exportOrganizationMemberList', tags, params: org, querystring: memberExportQuery, response: csvResponse } }, async (request, reply) =>
    sendCsv(reply, await service.exportOrganizationMembers(api.db, actorOf(request), request.params.id, request.query, api.now)),
  );

  api.get(
    '/organizations/:id/members',
    { config: { keep: { varies: 'member' } }, schema: { summary: 'List the members of an organization', operationId: 'listOrganizationMembers', tags, params: org, querystring: memberListQuery, response: { 200: z.array(memberSchema) } } },
    async (request, reply) => {
      return sendPage(reply, await service.listOrganizationMembers(api.db, actorOf(request), request.params.id, request.query));
    },
  );

  api.get(at, { config: { keep: { varies: 'member' } }, schema: { summary: 'Get a member', operationId: 'getMember', tags, params: orgMember, response: one } }, async (request) =>
    service.getMember(api.db, actorOf(request), request.params.id, request.params.memberId),
  );

  api.put(at, { schema: { summary: 'Save a member', operationId: 'saveMember', tags, params: orgMember, body: memberUpdateSchema, response: one } }, async (request) =>
    service.saveMember(api.db, actorOf(request), request.params.id, request.params.memberId, request.body, api.now()),
  );

  api.delete(at, { schema: { summary: 'Remove a member', operationId: 'removeMember', tags, params: orgMember, response: { 204: z.null() } } }, async (request, reply) => {
    await service.removeMember(api.db, actorOf(request), request.params.id, request.params.memberId, api.now());
    return reply.status(204).send(null);
  });

  api.post(`${at}/ban`, { schema: { summary: 'Ban a member', operationId: 'banMember', tags, params: orgMember, querystring: banQuery, response: one } }, async (request) =>
    service.banMember(api.db, actorOf(request), request.params.id, request.params.memberId, request.query.note, api.now()),
  );

  api.post(`${at}/unban`, { schema: { summary: 'Lift the ban of a member', operationId: 'unbanMember', tags, params: orgMember, response: one } }, async (request) =>
    service.unbanMember(api.db, actorOf(request), request.params.id, request.params.memberId, api.now()),
  );

  api.get(`${at}/status`, { schema: { summary: 'Test the sign-in of an email address: what the member would meet', operationId: 'getMemberSignInStatus', tags, params: orgMember, querystring: statusQuery, response: { 200: memberStatusSchema } } }, async (request) =>
    signInStatus(api.db, actorOf(request), request.params.id, request.params.memberId, request.query.email),
  );

  api.get(`${at}/roles`, { schema: { summary: 'List the roles of a member', operationId: 'listMemberRoles', tags, params: orgMember, response: roleList } }, async (request) =>
    roles.listRoles(api.db, actorOf(request), request.params.id, request.params.memberId),
  );

  api.post(`${at}/roles/assign`, { schema: { summary: 'Assign a role to a member', operationId: 'assignMemberRole', tags, params: orgMember, querystring: assignQuery, response: roleList } }, async (request) => {
    const { id, memberId } = request.params;
    return roles.assignRole(api.db, actorOf(request), id, memberId, request.query, api.now());
  });

  api.post(`${at}/roles/unassign`, { schema: { summary: 'Take a role from a member', operationId: 'unassignMemberRole', tags, params: orgMember, querystring: unassignQuery, response: roleList } }, async (request) => {
    const { id, memberId } = request.params;
    return roles.unassignRole(api.db, actorOf(request), id, memberId, request.query.role, api.now());
  });
};
