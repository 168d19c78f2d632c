/**
 * Runs the notification jobs in the portal's process (issue 13), each on its own interval and
 * never twice at once: the time scan, the dispatcher, the mail sender and the webhook sender.
 * Several instances each run them; the jobs take turns or take different rows in the database
 * (scan.ts, dispatch.ts, mail.ts). A job that fails logs a warning and runs again next time.
 */
import type { FastifyInstance } from 'fastify';
import { scanTime } from './scan';
import { dispatchEvents } from './dispatch';
import { sendDueMails, smtpTransport } from './mail';
import { deliverDueWebhooks } from '../webhooks/deliver';

export interface Job {
  name: string;
  everyMs: number;
  run: (now: Date) => Promise<unknown>;
}

/** The jobs of this app, from its configuration. */
function notificationJobs(app: FastifyInstance): Job[] {
  const { db, config } = app;
  const smtpUrl = config.notifications.smtpUrl;
  const transport = smtpUrl ? smtpTransport(smtpUrl) : undefined;
  return [
    { name: 'time scan', everyMs: 30_000, run: (now) => scanTime(db, now) },
    { name: 'dispatcher', everyMs: 2_000, run: (now) => dispatchEvents(db, now, { publicUrl: config.publicUrl, mail: !!transport }) },
    ...(transport ? [{ name: 'mail sender', everyMs: 5_000, run: (now: Date) => sendDueMails(db, now, { transport, from: config.notifications.mailFrom }) }] : []),
    { name: 'webhook sender', everyMs: 2_000, run: (now) => deliverDueWebhooks(db, now, { allowPrivate: config.notifications.allowPrivateWebhooks }) },
  ];
}

/** Starts the jobs when the app is ready and stops them when it closes. */
export function registerNotificationWorker(app: FastifyInstance, jobs: () => Job[] = () => notificationJobs(app)): void {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<string>();
  app.addHook('onReady', async () => {
    for (const job of jobs()) {
      const tick = async () => {
        if (running.has(job.name)) return;
        running.add(job.name);
        try {
          await job.run(app.now());
        } catch (error) {
          app.log.warn(`notifications: the ${job.name} failed and runs again in ${job.everyMs / 1000} s: ${error instanceof Error ? error.message : String(error)}`);
        } finally {
          running.delete(job.name);
        }
      };
      const timer = setInterval(tick, job.everyMs);
      timer.unref();
      timers.push(timer);
    }
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
    // Let a job that is running finish its transaction before the database closes.
    for (let waited = 0; running.size > 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  });
}
