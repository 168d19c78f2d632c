/**
 * Shared reads (db/shared-read.ts): callers that ask while a read runs share the next one, never the one under way,
 * so none is answered with what was read before it asked; on SQLite, callers of one event-loop turn share one read that
 * starts after the last of them asked.
 */
import { describe, expect, it } from 'vitest';
import { readingOncePerTurn, sharingReads } from './shared-read';

/** A read the test ends by hand: each call is numbered, and resolves or rejects when told. */
function manualReads() {
  const calls: { resolve: (n: number) => void; reject: (e: Error) => void }[] = [];
  const read = () => new Promise<number>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, read };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('sharingReads', () => {
  it('gives callers who ask during a read the next read, one for all of them', async () => {
    const { calls, read } = manualReads();
    const shared = sharingReads(read);
    const first = shared();
    const second = shared();
    const third = shared();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve(1);
    expect(await first).toBe(1);
    await settle();
    // The second read started after the first ended, so after the later callers asked.
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    expect(calls).toHaveLength(2);
  });

  it('reads anew for a caller who asks when no read runs', async () => {
    const { calls, read } = manualReads();
    const shared = sharingReads(read);
    const first = shared();
    calls[0]!.resolve(1);
    expect(await first).toBe(1);
    const later = shared();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(2);
    expect(await later).toBe(2);
  });

  it('gives a failed read to those who shared it, and reads anew after it', async () => {
    const { calls, read } = manualReads();
    const shared = sharingReads(read);
    const first = shared();
    const joined = shared();
    calls[0]!.reject(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    calls[1]!.reject(new Error('still lost'));
    await expect(joined).rejects.toThrow('still lost');
    const after = shared();
    expect(calls).toHaveLength(3);
    calls[2]!.resolve(3);
    expect(await after).toBe(3);
  });
});

describe('readingOncePerTurn', () => {
  /** A read that counts its calls and answers with the value `source` holds when it runs. */
  function countingReads(source: { value: number }) {
    const reads = { count: 0 };
    return { reads, read: async () => (reads.count++, source.value) };
  }

  it('answers every caller of one turn with one read, made after the last of them asked', async () => {
    const source = { value: 1 };
    const { reads, read } = countingReads(source);
    const once = readingOncePerTurn(read);
    const first = once();
    const second = once();
    // Committed after the first caller asked and before the read: both must see it.
    source.value = 2;
    const third = once();
    expect(reads.count).toBe(0);
    expect(await Promise.all([first, second, third])).toEqual([2, 2, 2]);
    expect(reads.count).toBe(1);
  });

  it('reads anew in a later turn', async () => {
    const source = { value: 1 };
    const { reads, read } = countingReads(source);
    const once = readingOncePerTurn(read);
    expect(await once()).toBe(1);
    source.value = 2;
    expect(await once()).toBe(2);
    expect(reads.count).toBe(2);
  });

  it('gives a caller who asks while the read runs the next read, not the running one', async () => {
    const later: Promise<number>[] = [];
    let calls = 0;
    const once: () => Promise<number> = readingOncePerTurn(async () => {
      calls++;
      if (calls === 1) later.push(once());
      return calls;
    });
    expect(await once()).toBe(1);
    expect(await later[0]).toBe(2);
  });

  it('gives a failed read to every caller of its turn, and reads anew after it', async () => {
    let fail = true;
    const once = readingOncePerTurn(async () => {
      if (fail) throw new Error('database is closed');
      return 7;
    });
    const [a, b] = [once(), once()];
    await expect(a).rejects.toThrow('database is closed');
    await expect(b).rejects.toThrow('database is closed');
    fail = false;
    expect(await once()).toBe(7);
  });
});
