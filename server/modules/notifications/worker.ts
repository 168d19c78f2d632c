/**
 * Runs the notification jobs in the portal's process (issue 13), each on its own interval and
 * never twice at once: the time scan, the dispatcher, the daily digests, the mail sender and the webhook sender.
 * Several instances each run them; the jobs take turns or take different rows in the database
 * (scan.ts, dispatch.ts, mail.ts). A job that fails runs again with backoff (registerNotificationWorker).
 */
import type { FastifyInstance } from 'fastify';
import { scanTime } from './scan';
import { dispatchEvents } from './dispatch';
import { sendDigests } from './digest';
import { sendDueMails, smtpTransport } from './mail';
import { deliverDueWebhooks } from '../webhooks/deliver';
import { databaseHealth } from '../../db/database';
import { backoffMs, describeError } from '../../startup';

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
    // The daily digests (digest.ts): a minute late at most after their hour; each run reads only who chose one.
    ...(transport ? [{ name: 'digest', everyMs: 60_000, run: (now: Date) => sendDigests(db, now, { publicUrl: config.publicUrl, mail: true }) }] : []),
    ...(transport ? [{ name: 'mail sender', everyMs: 5_000, run: (now: Date) => sendDueMails(db, now, { transport, from: config.notifications.mailFrom }) }] : []),
    { name: 'webhook sender', everyMs: 2_000, run: (now) => deliverDueWebhooks(db, now, { allowPrivate: config.notifications.allowPrivateWebhooks }) },
  ];
}

/**
 * Starts the jobs when the app is ready and stops them when it closes. Each runs `everyMs` after its
 * last run ended, never twice at once. A job that fails is tried again with backoff (startup.ts:
 * 1 s doubling to 30 s, never sooner than `everyMs`). A lost database is logged once by its health
 * (db/health.ts); any other failure once when a job starts failing and once when it runs again:
 * not a line every 2 s for the whole outage.
 */
export function registerNotificationWorker(app: FastifyInstance, jobs: () => Job[] = () => notificationJobs(app)): void {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<string>();
  let closed = false;
  const health = databaseHealth(app.db);
  app.addHook('onReady', async () => {
    for (const job of jobs()) {
      let failures = 0;
      /** This run of failures was logged by the job itself (not the database's outage): its end is too. */
      let logged = false;
      const schedule = (ms: number) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void tick();
        }, ms);
        timer.unref();
        timers.add(timer);
      };
      const tick = async () => {
        if (closed) return;
        running.add(job.name);
        try {
          await job.run(app.now());
          if (logged) app.log.warn(`notifications: the ${job.name} runs again after ${failures} failed ${failures === 1 ? 'attempt' : 'attempts'}`);
          failures = 0;
          logged = false;
        } catch (error) {
          failures++;
          if (!logged && !health.failureOf(error)) {
            logged = true;
            app.log.warn(`notifications: the ${job.name} failed: ${describeError(error)}; it is tried again with backoff (at most 30 s apart) until it runs`);
          }
        } finally {
          running.delete(job.name);
          if (!closed) schedule(failures ? Math.max(job.everyMs, backoffMs(failures - 1)) : job.everyMs);
        }
      };
      schedule(job.everyMs);
    }
  });
  app.addHook('onClose', async () => {
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    // Let a job that is running finish its transaction before the database closes.
    for (let waited = 0; running.size > 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  });
}
