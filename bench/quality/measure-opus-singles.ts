/**
 * Single speakers sent as voice messages: does the built-in diarizer keep one speaker when a clean
 * single-speaker recording is sent through the Opus codec at the bitrates of chat voice messages?
 * Every single-speaker clip of the shared audio with speech (jfk, LibriSpeech, LibriVox, 8 HiFi-TTS
 * clips, FLEURS, the Russian clip) is measured three ways: the WAV itself, and encoded by ffmpeg's
 * libopus at 16 kbit/s and 32 kbit/s (mono; Telegram's voice messages are Opus in Ogg) and decoded to
 * 16 kHz again. Each gets Silero VAD (speech and quiet speech, as a prediction), the one-speaker screen
 * (its verdict and the loudness spread, docs/diarization.md "Far-field count") and diarizeRecording with
 * the count estimated (engine builtin). Writes bench/results/opus-singles.md.
 *
 * Run: `npx tsx bench/quality/measure-opus-singles.ts`. Recordings from SHARED_AUDIO_DIR (default
 * ../shared/audio). Takes ~1 minute.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSpeechLevels, diarizeRecording, QUIET_SPEECH_ONSET, resolveDefaultVadModelPath, screenSpeakers } from '@transcribe/core';
import { AUDIO_DIR } from '../../apps/api/src/test-support/shared-paths.ts';
import { writeResult } from '../support/bench-kit.ts';

const wavsIn = (folder: string) =>
  readdirSync(join(AUDIO_DIR, folder))
    .filter((name) => name.endsWith('.wav'))
    .sort()
    .map((name) => `${folder}/${name}`);
const CLIPS = [
  'jfk.wav',
  ...wavsIn('librispeech-test-clean'),
  ...wavsIn('librivox-sense-and-sensibility'),
  ...wavsIn('hifitts-6097/clips').slice(0, 8),
  ...wavsIn('fleurs'),
  'ru_deepspeech_smoke.wav',
];
const CODINGS: { label: string; args: string[] | null }[] = [
  { label: 'WAV', args: null },
  { label: 'Opus 16 kbit/s', args: ['-c:a', 'libopus', '-b:a', '16k', '-ac', '1'] },
  { label: 'Opus 32 kbit/s', args: ['-c:a', 'libopus', '-b:a', '32k', '-ac', '1'] },
];

const work = mkdtempSync(join(tmpdir(), 'opus-singles-'));
const modelPath = resolveDefaultVadModelPath();
const rows: string[] = [];
const split: Record<string, number> = {};
try {
  for (const clip of CLIPS) {
    const cells: string[] = [];
    for (const { label, args } of CODINGS) {
      let path = join(AUDIO_DIR, clip);
      if (args) {
        const ogg = join(work, 'voice.ogg');
        execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', path, ...args, ogg]);
        path = join(work, 'voice.wav');
        execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', ogg, '-ar', '16000', '-ac', '1', path]);
      }
      const { speech, quietSpeech } = await detectSpeechLevels(path, { modelPath, quietThreshold: QUIET_SPEECH_ONSET });
      const screen = await screenSpeakers({ wavPath: path, speech });
      const turns = await diarizeRecording({ wavPath: path, speech, quietSpeech, speakers: null, engine: 'builtin' });
      const speakers = new Set(turns.map((turn) => turn.speaker)).size;
      if (speakers > 1) split[label] = (split[label] ?? 0) + 1;
      cells.push(`${speakers > 1 ? `**${speakers}**` : speakers} (${screen.verdict}, ${screen.loudnessSpread.toFixed(0)})`);
    }
    rows.push(`| ${clip} | ${cells.join(' | ')} |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
await writeResult(
  'opus-singles',
  [
    '# Single speakers as voice messages (built-in diarizer, count estimated)',
    '',
    "Each cell: speakers found (the one-speaker screen's verdict, the loudness spread in c0 units; under 115 a recording takes the far-field count). A single-speaker recording should get 1.",
    '',
    `Split into more than one: ${CODINGS.map(({ label }) => `${label} ${split[label] ?? 0} of ${CLIPS.length}`).join(', ')}.`,
    '',
    `| recording | ${CODINGS.map(({ label }) => label).join(' | ')} |`,
    `|---|${CODINGS.map(() => '---').join('|')}|`,
    ...rows,
  ],
  'npx tsx bench/quality/measure-opus-singles.ts',
);
