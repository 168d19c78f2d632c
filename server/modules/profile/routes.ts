/** The signed-in person's profile (GET /api/auth/callback) and the web app's public settings. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileSchema, clientSettingsSchema } from '../../../common/schemas/profile';
import { globalAbilities } from '../../../common/policy';
import { actorOf } from '../../auth/hook';
import { clientSettingsOf } from '../../config';
import { signIns } from '../../metrics';

export const profileRoutes: FastifyPluginAsyncZod = async (api) => {
  api.get(
    '/config',
    { config: { auth: 'public' }, schema: { summary: 'The web app\'s sign-in settings', operationId: 'getClientSettings', tags: ['auth'], response: { 200: clientSettingsSchema } } },
    async () => clientSettingsOf(api.config),
  );

  api.get(
    '/auth/callback',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { summary: 'The signed-in caller\'s profile, with their roles', operationId: 'getProfile', tags: ['auth'], response: { 200: profileSchema } },
    },
    async (request) => {
      const actor = actorOf(request);
      signIns.inc();
      return {
        name: actor.name,
        email: actor.email,
        member_id: actor.member_id,
        organization_id: actor.organization_id,
        organization_name: actor.organization_name,
        organization_role: actor.organization_role,
        roles: actor.roles,
        abilities: globalAbilities(actor),
      };
    },
  );
};
