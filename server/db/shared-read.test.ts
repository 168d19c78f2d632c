/**
 * Shared reads (db/shared-read.ts): callers that ask while a read runs share the next one, never the one under way,
 * so none is answered with what was read before it asked.
 */
import { describe, expect, it } from 'vitest';
import { sharingReads } from './shared-read';

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
