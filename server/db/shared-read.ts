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
