import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes to `path` an honest FLAC of digital silence at a low sample rate:
 * `ffmpeg -f lavfi -i anullsrc=r=RATE:cl=stereo|mono -t SECONDS -c:a flac`. Its header states its true
 * length, yet it is tiny (23.3 h of 1 Hz stereo: 15.6 kB; 3 h: 9 kB) while decoding it to 16 kHz PCM
 * writes 115.2 MB per hour and channel (23.3 h: 2.7 GB a channel).
 * @param options.seconds length, seconds; `rate` Hz (default 1); `channels` 1 or 2 (default 2).
 * @returns the file's size in bytes.
 * @throws when ffmpeg fails.
 */
export async function makeLowRateSilence(path: string, options: { seconds: number; rate?: number; channels?: 1 | 2 }): Promise<number> {
  const layout = (options.channels ?? 2) === 2 ? 'stereo' : 'mono';
  await run('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=${options.rate ?? 1}:cl=${layout}`,
    '-t',
    String(options.seconds),
    '-c:a',
    'flac',
    '-f',
    'flac',
    path,
  ]);
  return (await stat(path)).size;
}
