/** Notification rules of an organization and the caller's own notices (issue 13). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  mailPreferencesBodySchema, mailPreferencesSchema, markReadBodySchema, noticePageSchema, noticeQuerySchema, notificationSettingsBodySchema, notificationSettingsSchema,
} from '../../../common/schemas/notifications';
import { idText } from '../../../common/schemas/text';
import { actorOf } from '../../auth/hook';
import * as settings from './settings';
import * as notices from './notices';
import * as preferences from './preferences';

const params = z.object({ id: idText() });

export const notificationRoutes: FastifyPluginAsyncZod = async (api) => {
  const mail = !!api.config.notifications.smtpUrl;

  api.get(
    '/organizations/:id/notifications',
    { schema: { summary: "An organization's notification rules", operationId: 'getNotificationSettings', tags: ['notifications'], params, response: { 200: notificationSettingsSchema } } },
    async (request) => settings.getSettings(api.db, actorOf(request), request.params.id, mail),
  );

  api.put(
    '/organizations/:id/notifications',
    {
      schema: {
        summary: "Save an organization's notification rules", operationId: 'saveNotificationSettings', tags: ['notifications'],
        description: 'Which events notify, the expiry thresholds in days, how long an approval may wait, who receives them (members by role, extra addresses) and whether mails are sent.',
        params, body: notificationSettingsBodySchema, response: { 200: notificationSettingsSchema },
      },
    },
    async (request) => settings.saveSettings(api.db, actorOf(request), request.params.id, request.body, api.now(), mail),
  );

  api.get(
    '/notices/preferences',
    {
      schema: {
        summary: "The caller's own mail preference for approval work", operationId: 'getMailPreferences', tags: ['notifications'],
        description: 'For those who settle approvals (the operator\'s APPROVER and SUPERVISOR): a mail per request waiting, or one digest a day.',
        response: { 200: mailPreferencesSchema },
      },
    },
    async (request) => preferences.getPreferences(api.db, actorOf(request), mail),
  );

  api.put(
    '/notices/preferences',
    {
      schema: {
        summary: "Save the caller's own mail preference for approval work", operationId: 'saveMailPreferences', tags: ['notifications'],
        description: 'approval_mail: each (a mail per request, as the operator\'s rules send them) or digest (one mail a day from 07:00 in time_zone, '
          + 'counting the requests waiting on Pending Tasks, none when nothing waits). Bell notices and webhooks are unchanged.',
        body: mailPreferencesBodySchema, response: { 200: mailPreferencesSchema },
      },
    },
    async (request) => preferences.savePreferences(api.db, actorOf(request), request.body, api.now(), mail),
  );

  api.get(
    '/notices',
    { config: { keep: { varies: 'member' } }, schema: { summary: "The caller's notices, newest first, with the unread count", operationId: 'listNotices', tags: ['notifications'], querystring: noticeQuerySchema, response: { 200: noticePageSchema } } },
    async (request) => notices.listNotices(api.db, actorOf(request).member_id, request.query),
  );

  api.post(
    '/notices/read',
    {
      schema: {
        summary: "Mark the caller's notices read (the given ones, or all)", operationId: 'markNoticesRead', tags: ['notifications'],
        body: markReadBodySchema, response: { 200: z.object({ unread: z.number() }) },
      },
    },
    async (request) => ({ unread: await notices.markRead(api.db, actorOf(request).member_id, request.body.notice_ids, api.now()) }),
  );
};
