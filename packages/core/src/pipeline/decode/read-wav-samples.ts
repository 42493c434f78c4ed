import { createReadStream } from 'node:fs';
import { AppError } from '../../platform/errors/app-error.ts';
import { readWavLayout } from './read-wav-layout.ts';

/**
 * Streams the samples of a 16-bit integer PCM WAV (as made by decodeToPcm) as floats in [-1, 1)
 * (int16 / 32768), `chunkSamples` at a time (the last chunk may be shorter); multi-channel files yield
 * interleaved samples. The header is read by readWavLayout. Memory: one chunk plus one read buffer,
 * whatever the file length.
 * @throws AppError `media_unreadable` when the file is not a WAV file (readWavLayout) or not 16-bit integer PCM.
 */
export async function* readWavChunks(path: string, chunkSamples: number): AsyncGenerator<Float32Array> {
  if (!Number.isInteger(chunkSamples) || chunkSamples <= 0) throw new RangeError('chunkSamples must be a positive integer');
  const layout = await readWavLayout(path);
  if (layout.formatTag !== 1 || layout.bitsPerSample !== 16) {
    throw new AppError('media_unreadable', 'The decoded audio is damaged or not PCM WAV.', {
      cause: new Error(`format ${layout.formatTag}, ${layout.bitsPerSample}-bit samples; only 16-bit integer PCM is read`),
    });
  }
  if (layout.dataBytes < 2) return;
  const chunkBytes = chunkSamples * 2;
  const stream = createReadStream(path, {
    start: layout.dataOffset,
    end: layout.dataOffset + layout.dataBytes - (layout.dataBytes % 2) - 1,
    highWaterMark: Math.min(Math.max(chunkBytes, 64 * 1024), 4 * 1024 * 1024),
  });
  let pending = new Uint8Array(chunkBytes);
  let filled = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    for (let used = 0; used < piece.length;) {
      const take = Math.min(chunkBytes - filled, piece.length - used);
      pending.set(piece.subarray(used, used + take), filled);
      filled += take;
      used += take;
      if (filled === chunkBytes) {
        yield toFloat(pending, filled);
        pending = new Uint8Array(chunkBytes);
        filled = 0;
      }
    }
  }
  if (filled >= 2) yield toFloat(pending, filled);
}

/** Little-endian int16 bytes → floats; `bytes` is even. */
function toFloat(bytes: Uint8Array, length: number): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  const out = new Float32Array(length >> 1);
  for (let index = 0; index < out.length; index += 1) out[index] = view.getInt16(index * 2, true) / 32768;
  return out;
}
