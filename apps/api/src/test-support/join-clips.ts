import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AUDIO_DIR } from './shared-paths.ts';

const run = promisify(execFile);

/** The LibriVox reader of the shared clips (sense_and_sensibility_01_austen_64kb-NNNN.wav). */
export const LIBRIVOX_READER = 'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb';

/**
 * A two-voice conversation for the known-voices tests: LibriVox 0890 (the reader), then jfk.wav, joined
 * with ffmpeg's concat filter into `dest` (a WAV at the clips' own rate).
 * @returns `dest`.
 * @throws ffmpeg's error when it fails.
 */
export async function writeReaderThenJfk(dest: string): Promise<string> {
  await run('ffmpeg', [
    '-v',
    'error',
    '-i',
    join(AUDIO_DIR, `${LIBRIVOX_READER}-0890.wav`),
    '-i',
    join(AUDIO_DIR, 'jfk.wav'),
    '-filter_complex',
    '[0:a][1:a]concat=n=2:v=0:a=1',
    dest,
  ]);
  return dest;
}
