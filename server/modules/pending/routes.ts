/**
 * Pending tasks (SPEC.md §7 GET /api/approve, GET /api/acknowledge): approvals and expiry
 * acknowledgements waiting in the organizations where the caller has an applying role.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingSchema } from '../../../common/schemas/pending';
import { actorOf } from '../../auth/hook';
import { readableOrganizationIds } from '../organizations/tree';
import { listPendingCertificates } from '../certificates/repository';
import { toSummary } from '../certificates/service';
import { listPendingLicenses } from '../licenses/repository';
import { toLicense } from '../licenses/service';

export const pendingRoutes: FastifyPluginAsyncZod = async (api) => {
  for (const [path, kind] of [['/approve', 'approval'], ['/acknowledge', 'acknowledgement']] as const) {
    api.get(path, { schema: { tags: ['pending'], response: { 200: pendingSchema } } }, async (request) => {
      const organizations = await readableOrganizationIds(api.db, actorOf(request));
      const now = api.now();
      const [certificates, licenses] = await Promise.all([
        listPendingCertificates(api.db, organizations, kind, now),
        listPendingLicenses(api.db, organizations, kind, now),
      ]);
      return { certificates: certificates.map(toSummary), licenses: licenses.map((l) => toLicense(l, now)) };
    });
  }
};
