import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `shared/audio` beside the checkout (as apps/api/src/test-support/shared-paths.ts); SHARED_AUDIO_DIR overrides. */
export const AUDIO_DIR =
  process.env.SHARED_AUDIO_DIR ?? join(fileURLToPath(new URL('../../../../../', import.meta.url)), '..', 'shared', 'audio');

/** Absolute path of a file under shared/audio, e.g. `audioPath('jfk.wav')`. */
export function audioPath(relative: string): string {
  return join(AUDIO_DIR, relative);
}

/** The reference transcript beside a shared WAV file (same name, `.txt`). */
export function readReference(relativeWav: string): Promise<string> {
  return readFile(audioPath(relativeWav.replace(/\.wav$/, '.txt')), 'utf8');
}
