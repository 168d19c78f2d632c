/**
 * The export epoch as the gateways' polls read it (modules/piston/exports.ts). SQLite: held for a
 * second unless this process writes (heldEpoch). PostgreSQL: a query per poll was most of a 304's cost, so each
 * instance listens (LISTEN export_epoch, migration 0016) and holds the number in memory; a poll then
 * needs no query. NOTIFY is delivered at commit, so another instance's change is served within the
 * moment the notification takes to arrive; a gateway polling once a minute cannot tell.
 *
 * Read-your-writes on this instance: for two seconds after any write statement made through this
 * database, polls read the epoch from the database, so a change made here is exported at the very
 * next call, before its own notification has come back. Without a listening connection (not yet
 * connected, or lost), every poll reads the database, as before.
 */
import type pg from 'pg';
import { databaseLocation, databaseTimeouts, lastWriteAt, readRows, type Db, type Queryable } from './database';
import { pgModule } from './pg';

const WRITE_WINDOW_MS = 2_000;
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

interface Watch {
  /** The epoch as last known from the listening connection; undefined while it is not listening. */
  value?: number;
  /** The highest number notified on the current connection, also before `value` is known. */
  notified: number;
  client?: pg.Client;
  retry?: NodeJS.Timeout;
  attempts: number;
  stopped: boolean;
}

const watches = new WeakMap<object, Watch>();

/** The number of the export epoch row (migrations 0007, 0016). */
export async function readEpoch(db: Queryable, name: 'export_epoch' = 'export_epoch'): Promise<number> {
  const [row] = await readRows(db, `select epoch from ${name} where id = 1`);
  if (!row) throw new Error(`The ${name} row is missing.`);
  return Number(row.epoch);
}

export async function readExportEpoch(db: Db): Promise<number> {
  return knownExportEpoch(db) ?? (watching(db) ? readEpoch(db, 'export_epoch') : readAndHold(db));
}

/** The epoch when this process knows it without a query (listened to, or held); undefined when it must be read. */
export function knownExportEpoch(db: Db): number | undefined {
  const watch = watching(db);
  if (!watch) return heldEpoch(db, performance.now());
  const known = watch.value;
  return known !== undefined && performance.now() - lastWriteAt(db) > WRITE_WINDOW_MS ? known : undefined;
}

/**
 * SQLite: one portal process writes the file, so its own writes are known here (lastWriteAt) and the
 * number read is held until the next one; a write by another process (the sqlite3 shell) is seen
 * within HOLD_MS, as another instance's is on PostgreSQL. The read was the largest part of a 304.
 */
const HOLD_MS = 1_000;
const held = new WeakMap<object, { epoch: number; readAt: number }>();

function heldEpoch(db: Db, at: number): number | undefined {
  const last = held.get(db);
  return last && at - last.readAt < HOLD_MS && lastWriteAt(db) < last.readAt ? last.epoch : undefined;
}

async function readAndHold(db: Db): Promise<number> {
  const at = performance.now();
  const epoch = await readEpoch(db, 'export_epoch');
  held.set(db, { epoch, readAt: at });
  return epoch;
}

function watching(db: Db): Watch | undefined {
  let watch = watches.get(db);
  if (!watch) {
    const url = databaseLocation(db)?.databaseUrl;
    if (!url) return undefined;
    watches.set(db, (watch = { attempts: 0, stopped: false, notified: 0 }));
    listen(db, watch, url);
  }
  return watch;
}

function listen(db: Db, watch: Watch, url: string): void {
  // keepAlive: a connection lost without a word (a dropped network path) is noticed and replaced; a connection
  // attempt to a frozen server is given up after the portal's connect timeout and tried again.
  const client = new (pgModule().Client)({ connectionString: url, keepAlive: true, connectionTimeoutMillis: databaseTimeouts(db)?.connectMs || undefined });
  watch.client = client;
  watch.notified = 0;
  const lost = () => {
    if (watch.client !== client) return;
    watch.value = undefined;
    watch.client = undefined;
    client.end().catch(() => {});
    if (watch.stopped) return;
    const wait = RETRY_MS[Math.min(watch.attempts++, RETRY_MS.length - 1)];
    watch.retry = setTimeout(() => listen(db, watch, url), wait);
    watch.retry.unref();
  };
  client.on('error', lost);
  client.on('end', lost);
  client.on('notification', (message) => {
    const epoch = Number(message.payload);
    if (watch.client !== client || !Number.isFinite(epoch)) return;
    // The epoch only grows: a late notification never takes it back.
    watch.notified = Math.max(watch.notified, epoch);
    if (watch.value !== undefined) watch.value = Math.max(watch.value, epoch);
  });
  (async () => {
    await client.connect();
    await client.query('LISTEN export_epoch');
    // Read after listening: a change committed in between arrives as a notification too.
    const epoch = await readEpoch(db, 'export_epoch');
    if (watch.client !== client) return;
    // A change committed while the read ran may have been notified before it answered.
    watch.value = Math.max(epoch, watch.notified);
    watch.attempts = 0;
  })().catch(lost);
}

/** Closes the listening connection (the app's onClose). */
export async function stopExportEpochWatch(db: Db): Promise<void> {
  const watch = watches.get(db);
  if (!watch) return;
  watch.stopped = true;
  clearTimeout(watch.retry);
  const client = watch.client;
  watch.client = undefined;
  watch.value = undefined;
  watches.delete(db);
  await client?.end().catch(() => {});
}
