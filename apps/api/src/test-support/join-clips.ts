import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AUDIO_DIR } from './shared-paths.ts';

const run = promisify(execFile);

/** The LibriVox reader of the shared clips (sense_and_sensibility_01_austen_64kb-NNNN.wav). */
export const LIBRIVOX_READER = 'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb';

/**
 * Joins recordings of the shared audio one after another with ffmpeg's concat filter into `dest` (a
 * file of the type its extension names, at the first clip's rate): a conversation of several voices
 * for the diarization and known-voices tests.
 * @param clips paths under the shared audio directory, e.g. `['jfk.wav', 'librispeech-test-clean/1089-134686-0000.wav']`.
 * @returns `dest`.
 * @throws ffmpeg's error when it fails.
 */
export async function joinClips(dest: string, clips: readonly string[]): Promise<string> {
  const inputs = clips.flatMap((clip) => ['-i', join(AUDIO_DIR, clip)]);
  const filter = `${clips.map((_, i) => `[${i}:a]`).join('')}concat=n=${clips.length}:v=0:a=1`;
  await run('ffmpeg', ['-v', 'error', ...inputs, '-filter_complex', filter, dest]);
  return dest;
}

/**
 * A two-voice conversation for the known-voices tests: LibriVox 0890 (the reader), then jfk.wav (joinClips).
 * @returns `dest`.
 * @throws ffmpeg's error when it fails.
 */
export function writeReaderThenJfk(dest: string): Promise<string> {
  return joinClips(dest, [`${LIBRIVOX_READER}-0890.wav`, 'jfk.wav']);
}
