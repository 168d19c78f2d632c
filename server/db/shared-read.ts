/**
 * One read of a statement for every caller that asks while another read of it is under way.
 *
 * Every signed-in request reads the epochs (db/access-epoch.ts). On PostgreSQL that is a round trip, and under load
 * dozens of requests ask within one turn of the event loop. A caller never joins the read already under way: it
 * may have started before something the caller must see was committed (a ban, a role change). It joins the next
 * read instead, which starts when the running one ends, so after the caller asked: whatever was committed before a
 * request asked is in its answer, as if it had read alone, and the database sees one statement per round instead
 * of one per request.
 */
export function sharingReads<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const started = read();
    running = started;
    const ended = () => {
      if (running === started) running = undefined;
    };
    started.then(ended, ended);
    return started;
  };
  return () => {
    if (!running) return start();
    next ??= running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}

/**
 * One read for every caller that asks within one turn of the event loop (SQLite).
 *
 * On SQLite a read costs no round trip, so callers never overlap one under way as on PostgreSQL: each request read
 * the epochs alone, and under load that statement was a tenth of a list request's CPU. Here the read waits for the
 * turn's check phase (setImmediate), after every request of the turn has been parsed and has asked, and answers
 * them all. It starts after the last of them asked, so whatever was committed before any of them asked is in its
 * answer, as if each had read alone (a ban still takes effect at the very next call); a caller who asks once it has
 * started waits for the next turn's read. Not on PostgreSQL: there a turn under load is short while the answers come
 * over the network, so a read per turn was a statement per few requests and cost more than sharingReads' tail.
 */
export function readingOncePerTurn<T>(read: () => Promise<T>): () => Promise<T> {
  let waiting: Promise<T> | undefined;
  return () =>
    (waiting ??= new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        waiting = undefined;
        read().then(resolve, reject);
      });
    }));
}
