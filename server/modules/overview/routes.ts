/** The overview (issue 12 item 6): what needs attention in an organization, or in all one reads. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { overviewSchema } from '../../../common/schemas/overview';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import * as service from './service';

const tags = ['overview'];
const DESCRIPTION =
  'Counts by status as the lists show them, what expires within 7, 30 and 90 days, the pending tasks, the latest journal records and the expiries of the current month (UTC) and the next eleven, at the request\'s instant.';

export const overviewRoutes: FastifyPluginAsyncZod = async (api) => {
  api.get(
    '/organizations/:id/overview',
    { config: { keep: { varies: 'roles' } }, schema: { summary: 'The overview of an organization: what needs attention', operationId: 'getOrganizationOverview', description: DESCRIPTION, tags, params: z.object({ id: idText() }), response: { 200: overviewSchema } } },
    async (request, reply) => service.organizationOverview(api.db, actorOf(request), request.params.id, api.now(), (at) => (reply.keptUntil = at)),
  );

  api.get(
    '/admin/overview',
    { schema: { summary: 'The overview of every organization the caller reads (operator staff)', operationId: 'getAdminOverview', description: `${DESCRIPTION} Operator staff only; across the organizations the caller reads, as the admin lists.`, tags, response: { 200: overviewSchema } } },
    async (request) => service.adminOverview(api.db, actorOf(request), api.now()),
  );
};
