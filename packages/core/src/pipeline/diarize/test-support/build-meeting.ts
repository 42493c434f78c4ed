import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SpeakerTurn, TimeRegion } from '../speaker-turn.ts';

const run = promisify(execFile);

/**
 * Voices of ../shared/audio, one reader each: [clip under the audio folder, from s, to s]. Used to build
 * meetings from single speakers: the shared audio holds only two real multi-speaker recordings.
 */
export const MEETING_VOICES: Readonly<Record<string, readonly (readonly [string, number, number])[]>> = {
  jfk: [['jfk.wav', 0, 11]],
  ls: [
    ['librispeech-test-clean/1089-134686-0000.wav', 0, 10.4],
    ['librispeech-test-clean/1089-134686-0001.wav', 0, 3.3],
  ],
  lv: [
    ['librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0870.wav', 0, 7.1],
    ['librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0890.wav', 0, 5.3],
    ['librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0880.wav', 0, 3.0],
  ],
  hifi: [['long_hifitts6097_concat_16k.wav', 150, 170]],
  de0: [['fleurs/fleurs-de-000.wav', 0, 17.9]],
  de1: [['fleurs/fleurs-de-001.wav', 0, 11.1]],
  en0: [['fleurs/fleurs-en-000.wav', 0, 10.6]],
  en1: [['fleurs/fleurs-en-001.wav', 0, 8.8]],
  en2: [['fleurs/fleurs-en-002.wav', 0, 11.5]],
  es0: [['fleurs/fleurs-es-000.wav', 0, 12.8]],
  es1: [['fleurs/fleurs-es-001.wav', 0, 21.4]],
  fr0: [['fleurs/fleurs-fr-000.wav', 0, 10.2]],
  fr1: [['fleurs/fleurs-fr-001.wav', 0, 23.4]],
  pt0: [['fleurs/fleurs-pt-000.wav', 0, 17.8]],
  pt1: [['fleurs/fleurs-pt-001.wav', 0, 13.6]],
};

/** A built meeting: a 16 kHz mono WAV and who speaks when (each turn labelled with its voice's name). */
export interface BuiltMeeting {
  wavPath: string;
  voices: string[];
  turns: SpeakerTurn[];
}

interface Piece {
  file: string;
  voice: string;
  seconds: number;
  silenceBefore: number;
}

export interface MeetingOptions {
  /** ../shared/audio. */
  audioDir: string;
  /** Where the pieces and the meeting are written (created if missing). */
  workDir: string;
  /** Names in MEETING_VOICES. */
  voices: readonly string[];
  /** File name of the meeting, without `.wav`. */
  name: string;
}

/**
 * A meeting whose voices take turns in order (A B C A B C …): each voice's clips cut into turns of
 * `turnSeconds` (default 3 s), at most `secondsPerVoice` (default 10 s) per voice, no pause between turns.
 * @throws when ffmpeg fails or a voice is unknown.
 */
export async function buildRoundRobinMeeting(
  options: MeetingOptions & { turnSeconds?: number; secondsPerVoice?: number },
): Promise<BuiltMeeting> {
  const { turnSeconds = 3, secondsPerVoice = 10 } = options;
  await mkdir(options.workDir, { recursive: true });
  const byVoice: Piece[][] = [];
  for (const voice of options.voices) {
    const pieces: Piece[] = [];
    let taken = 0;
    for (const [clip, from, to] of clipsOf(voice)) {
      for (let at = from; at < to - 0.5 && taken < secondsPerVoice; at += turnSeconds) {
        const seconds = Math.min(turnSeconds, to - at);
        const file = join(options.workDir, `${options.name}-${voice}-${pieces.length}.wav`);
        await cut(join(options.audioDir, clip), at, seconds, file);
        pieces.push({ file, voice, seconds, silenceBefore: 0 });
        taken += seconds;
      }
    }
    byVoice.push(pieces);
  }
  const order: Piece[] = [];
  for (let turn = 0; byVoice.some((pieces) => turn < pieces.length); turn += 1) {
    for (const pieces of byVoice) if (pieces[turn]) order.push(pieces[turn]!);
  }
  return playInTurn(order, options);
}

/**
 * A meeting of shuffled turns: every voice's whole clips cut into turns of 1.5–6 s, the turns shuffled,
 * 0–0.8 s of silence before each; `uniform` (numbers in [0, 1)) decides, so a seeded one gives the same
 * meeting every run.
 * @throws when ffmpeg fails or a voice is unknown.
 */
export async function buildShuffledMeeting(options: MeetingOptions & { uniform: () => number }): Promise<BuiltMeeting> {
  const { uniform } = options;
  await mkdir(options.workDir, { recursive: true });
  const pieces: Piece[] = [];
  for (const voice of options.voices) {
    for (const [clip, from, to] of clipsOf(voice)) {
      for (let at = from; at < to - 1;) {
        const seconds = Math.min(1.5 + uniform() * 4.5, to - at);
        const file = join(options.workDir, `${options.name}-${pieces.length}.wav`);
        await cut(join(options.audioDir, clip), at, seconds, file);
        pieces.push({ file, voice, seconds, silenceBefore: 0 });
        at += seconds;
      }
    }
  }
  for (let i = pieces.length - 1; i > 0; i -= 1) {
    const j = Math.floor(uniform() * (i + 1));
    [pieces[i], pieces[j]] = [pieces[j]!, pieces[i]!];
  }
  for (const piece of pieces) piece.silenceBefore = uniform() * 0.8;
  return playInTurn(pieces, options);
}

/**
 * A far-field version of a close-talk recording, simulated with ffmpeg: the speech convolved with a room
 * response (exponentially decaying white noise, RT60 ≈ 0.5 s, afir) mixed 1 : 2 with the direct sound,
 * band-limited to 100–6000 Hz, then pink noise added ~15 dB under the speech. `seed` picks the room
 * response and the noise. A stand-in for a room microphone (bench/quality/measure-meetings.ts's far-field
 * sets; docs/diarization.md "Far-field count"), not a measured room.
 * @param input, output 16 kHz mono WAV files.
 * @throws when ffmpeg fails.
 */
export async function makeFarField(input: string, output: string, seed: number): Promise<void> {
  await run('ffmpeg', [
    ...['-v', 'error', '-nostdin', '-y', '-i', input],
    ...['-f', 'lavfi', '-i', `anoisesrc=d=0.5:c=white:r=16000:a=0.5:seed=${seed + 1},afade=t=out:st=0:d=0.5:curve=exp`],
    ...['-f', 'lavfi', '-i', `anoisesrc=c=pink:r=16000:a=0.02:seed=${seed + 1000}`],
    '-filter_complex',
    '[0:a]asplit[dry][src];[src][1:a]afir=gtype=peak[wet];[dry][wet]amix=inputs=2:weights=1 2:duration=first:normalize=1,' +
      'highpass=f=100,lowpass=f=6000[room];[room][2:a]amix=inputs=2:duration=first:normalize=0',
    ...['-ar', '16000', '-ac', '1', output],
  ]);
}

/** Deterministic numbers in [0, 1) from `seed` (a 32-bit linear congruential generator). */
export function seededUniforms(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * The reference turns of a built meeting as a diarizer can be scored against: `speech` (the VAD's
 * intervals, seconds) cut at the turns' boundaries, each piece labelled with its turn's voice. So the
 * VAD's own misses and false alarms are left out and the error is the diarizer's.
 */
export function meetingReference(speech: readonly TimeRegion[], turns: readonly SpeakerTurn[]): SpeakerTurn[] {
  const reference: SpeakerTurn[] = [];
  for (const region of speech) {
    for (const turn of turns) {
      const [start, end] = [Math.max(region.start, turn.start), Math.min(region.end, turn.end)];
      if (end > start) reference.push({ start, end, speaker: turn.speaker });
    }
  }
  return reference;
}

function clipsOf(voice: string): readonly (readonly [string, number, number])[] {
  const clips = MEETING_VOICES[voice];
  if (!clips) throw new Error(`unknown voice ${voice}; known: ${Object.keys(MEETING_VOICES).join(', ')}`);
  return clips;
}

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args]);
}

async function cut(input: string, from: number, seconds: number, out: string): Promise<void> {
  await ffmpeg(['-ss', from.toFixed(2), '-t', seconds.toFixed(2), '-i', input, '-ar', '16000', '-ac', '1', out]);
}

/** Plays the pieces one after the other, each after its silence, into `workDir/name.wav`. */
async function playInTurn(pieces: readonly Piece[], options: MeetingOptions): Promise<BuiltMeeting> {
  const wavPath = join(options.workDir, `${options.name}.wav`);
  const inputs = pieces.flatMap((piece) => ['-i', piece.file]);
  const delays = pieces.map((piece, i) => `[${i}:a]adelay=${Math.round(piece.silenceBefore * 1000)}:all=1[a${i}]`);
  const concat = `${pieces.map((_, i) => `[a${i}]`).join('')}concat=n=${pieces.length}:v=0:a=1`;
  await ffmpeg([...inputs, '-filter_complex', `${delays.join(';')};${concat}`, '-ar', '16000', '-ac', '1', wavPath]);
  const turns: SpeakerTurn[] = [];
  let at = 0;
  for (const piece of pieces) {
    at += piece.silenceBefore;
    turns.push({ start: at, end: at + piece.seconds, speaker: piece.voice });
    at += piece.seconds;
  }
  return { wavPath, voices: [...options.voices], turns };
}
