import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes to `path` a stereo FLAC decompression bomb: `hours` of 1 Hz audio (a constant, different on each
 * channel, so it packs into a few kB: 25 h make 16 kB) whose STREAMINFO states only `statedSamples`
 * samples, i.e. `statedSamples` seconds. ffprobe believes the header; ffmpeg decodes every frame, so
 * an uncapped decode to 16 kHz writes hours × 115.2 MB per channel (25 h: 2.88 GB).
 * STREAMINFO (FLAC format, section METADATA_BLOCK_STREAMINFO): after `fLaC` and the 4-byte block header,
 * bytes 18–25 hold sample rate (20 bits), channels − 1 (3), bits − 1 (5) and total samples (36 bits).
 * @param options.frameSamples samples per FLAC frame (ffmpeg's default 4096; at most 65535, i.e. 18 h of
 *   1 Hz audio in one frame: a billion samples once resampled to 16 kHz in one piece).
 * @returns the file's size in bytes.
 * @throws when ffmpeg fails.
 */
export async function makeFlacBomb(
  path: string,
  options: { hours: number; statedSamples: number; frameSamples?: number },
): Promise<number> {
  const frames = Math.round(options.hours * 3600);
  const raw = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    raw.writeInt16LE(300, i * 4);
    raw.writeInt16LE(-300, i * 4 + 2);
  }
  const rawPath = `${path}.raw`;
  await writeFile(rawPath, raw);
  try {
    await run('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      's16le',
      '-ar',
      '1',
      '-ac',
      '2',
      '-i',
      rawPath,
      '-c:a',
      'flac',
      ...(options.frameSamples ? ['-frame_size', String(options.frameSamples)] : []),
      '-f',
      'flac',
      path,
    ]);
  } finally {
    await rm(rawPath, { force: true });
  }
  const flac = await readFile(path);
  if (flac.toString('latin1', 0, 4) !== 'fLaC' || (flac[4]! & 0x7f) !== 0) throw new Error('ffmpeg wrote no STREAMINFO first');
  const packed = flac.readBigUInt64BE(18);
  const low36 = (1n << 36n) - 1n;
  flac.writeBigUInt64BE((packed & ~low36) | BigInt(options.statedSamples), 18);
  await writeFile(path, flac);
  return flac.length;
}
