import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { AppError } from '../../platform/errors/app-error.ts';

/** Layout of a PCM WAV file. */
export interface WavHeader {
  /** Samples per second per channel, in Hz. */
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Byte offset of the first sample (start of the `data` chunk's payload). */
  dataOffset: number;
  /** Bytes of sample data actually present (the declared size, capped by the file's real size). */
  dataBytes: number;
}

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/**
 * Reads the RIFF/WAVE header of `path`: walks the chunks (`fmt `, `LIST`, … ; odd sizes padded) to the `data` chunk.
 * A declared data size of 0 or 0xFFFFFFFF (unfinished or streamed writers) or one beyond the file end
 * is replaced by the bytes really present.
 * @throws AppError `media_unreadable` when the file is not a PCM WAV file.
 */
export async function readWavHeader(path: string): Promise<WavHeader> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const riff = await readAt(file, 0, 12);
    if (riff.toString('latin1', 0, 4) !== 'RIFF' || riff.toString('latin1', 8, 12) !== 'WAVE') throw notWav('no RIFF/WAVE header');
    let format: Pick<WavHeader, 'sampleRate' | 'channels' | 'bitsPerSample'> | null = null;
    for (let offset = 12; offset + 8 <= size;) {
      const chunk = await readAt(file, offset, 8);
      const id = chunk.toString('latin1', 0, 4);
      const length = chunk.readUInt32LE(4);
      if (id === 'fmt ') format = parseFormat(await readAt(file, offset + 8, Math.min(length, 40)));
      if (id === 'data') {
        if (format === null) throw notWav('data before fmt');
        const present = size - (offset + 8);
        const dataBytes = length === 0 || length === 0xffffffff || length > present ? present : length;
        return { ...format, dataOffset: offset + 8, dataBytes };
      }
      offset += 8 + length + (length % 2);
    }
    throw notWav('no data chunk');
  } finally {
    await file.close();
  }
}

/**
 * Streams the samples of a 16-bit PCM WAV (as made by decodeToPcm) as floats in [-1, 1) (int16 / 32768),
 * `chunkSamples` at a time (the last chunk may be shorter); multi-channel files yield interleaved samples.
 * Memory: one chunk plus one read buffer, whatever the file length.
 * @throws AppError `media_unreadable` when the file is not 16-bit PCM WAV.
 */
export async function* readWavChunks(path: string, chunkSamples: number): AsyncGenerator<Float32Array> {
  if (!Number.isInteger(chunkSamples) || chunkSamples <= 0) throw new RangeError('chunkSamples must be a positive integer');
  const header = await readWavHeader(path);
  if (header.bitsPerSample !== 16) throw notWav(`${header.bitsPerSample}-bit samples; only 16-bit is read`);
  if (header.dataBytes < 2) return;
  const chunkBytes = chunkSamples * 2;
  const stream = createReadStream(path, {
    start: header.dataOffset,
    end: header.dataOffset + header.dataBytes - (header.dataBytes % 2) - 1,
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

function parseFormat(fmt: Buffer): Pick<WavHeader, 'sampleRate' | 'channels' | 'bitsPerSample'> {
  if (fmt.length < 16) throw notWav('short fmt chunk');
  const tag = fmt.readUInt16LE(0);
  const subFormat = tag === WAVE_FORMAT_EXTENSIBLE && fmt.length >= 26 ? fmt.readUInt16LE(24) : tag;
  if (subFormat !== WAVE_FORMAT_PCM) throw notWav(`format ${tag} is not integer PCM`);
  return { channels: fmt.readUInt16LE(2), sampleRate: fmt.readUInt32LE(4), bitsPerSample: fmt.readUInt16LE(14) };
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead < length) throw notWav('header cut short');
  return buffer;
}

function notWav(detail: string): AppError {
  return new AppError('media_unreadable', 'The decoded audio is damaged or not PCM WAV.', { cause: new Error(detail) });
}
