/**
 * Bytes with memory of their own, to keep: Node hands out a Buffer under 4 kB (`Buffer.from`) as a slice of a shared
 * 8 kB slab, and zlib's output as a slice of its 16 kB output chunk; a kept slice holds the whole of that memory for as
 * long as it is kept (kept answers: http/kept-answers.ts; the archive's pieces: modules/piston/archive.ts).
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}
