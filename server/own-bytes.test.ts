/**
 * Kept bytes hold only their own memory: zlib's output and small Buffers are slices of larger memory (zlib's 16 kB
 * chunk, Node's 8 kB slab) that a kept slice would hold for as long as it is kept (3 MB of kept answers held 125 MB).
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ownBytes } from './own-bytes';

describe('kept bytes', () => {
  it('copies a slice into memory of its own and keeps a Buffer that owns its memory as it is', async () => {
    const zipped = await promisify(gzip)(Buffer.from(JSON.stringify({ items: ['a small page'] })));
    // What the copy is for: the small gzipped answer lies in a far larger chunk.
    expect(zipped.buffer.byteLength).toBeGreaterThan(zipped.length * 10);
    const own = ownBytes(zipped);
    expect(own.buffer.byteLength).toBe(own.length);
    expect(own.equals(zipped)).toBe(true);
    const large = Buffer.alloc(100_000, 1);
    expect(ownBytes(large)).toBe(large);
    const slab = Buffer.from('a small answer');
    expect(ownBytes(slab).buffer.byteLength).toBe(slab.length);
  });
});
