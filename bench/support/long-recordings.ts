/**
 * Test recordings of any length, made by concatenating the real read-speech clips of
 * `long_hifitts6097_concat_16k.wav` (116 HiFi-TTS clips, 332.8 s) with ffmpeg into bench/tmp/
 * (gitignored). Made once and reused while the file is complete.
 */
import { spawn } from 'node:child_process';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { AUDIO_DIR } from '../../apps/api/src/test-support/shared-paths.ts';

/** The real long recording the issue names (332.8 s, 16 kHz mono). */
export const LONG_CLIP = join(AUDIO_DIR, 'long_hifitts6097_concat_16k.wav');
export const LONG_CLIP_SECONDS = 332.8;
/** bench/tmp/ */
export const BENCH_TMP = fileURLToPath(new URL('../tmp/', import.meta.url));

export interface RecordingSpec {
  seconds: number;
  /** Default 16000. */
  sampleRate?: number;
  /** Default 1. */
  channels?: number;
}

/** Name of the file for a spec, e.g. `speech-3600s-16000hz-1ch.wav`. */
export function recordingName(spec: RecordingSpec): string {
  return `speech-${spec.seconds}s-${spec.sampleRate ?? 16000}hz-${spec.channels ?? 1}ch.wav`;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr}`))));
  });
}

/**
 * A WAV (signed 16-bit) of exactly `spec.seconds` of real speech at the given rate and channels, in
 * bench/tmp/. Expected size: 44-byte header + seconds × rate × channels × 2 bytes.
 * @returns the file's absolute path.
 */
export async function buildRecording(spec: RecordingSpec): Promise<string> {
  const rate = spec.sampleRate ?? 16000;
  const channels = spec.channels ?? 1;
  await mkdir(BENCH_TMP, { recursive: true });
  const path = join(BENCH_TMP, recordingName(spec));
  const expected = 44 + Math.round(spec.seconds * rate) * channels * 2;
  const size = await stat(path).then(
    (info) => info.size,
    () => -1,
  );
  if (Math.abs(size - expected) <= channels * 2 * 2) return path;
  const repeats = Math.ceil(spec.seconds / LONG_CLIP_SECONDS);
  const list = join(BENCH_TMP, `concat-${repeats}.txt`);
  await writeFile(list, Array.from({ length: repeats }, () => `file '${LONG_CLIP}'\n`).join(''));
  const partial = `${path}.part.wav`;
  await run('ffmpeg', [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-t',
    String(spec.seconds),
    '-ar',
    String(rate),
    '-ac',
    String(channels),
    '-c:a',
    'pcm_s16le',
    '-fflags',
    '+bitexact',
    '-map_metadata',
    '-1',
    partial,
  ]);
  await rename(partial, path);
  return path;
}
