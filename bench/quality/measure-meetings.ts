/**
 * Speaker count and DER of the diarizer on meetings of 2–8 speakers built from the real single-speaker
 * recordings of ../shared/audio, when `speakers` is not given (and, for comparison, when it is). The
 * shared audio holds only two real multi-speaker recordings (pyannote_sample: 2 speakers;
 * ami_debug_tst01: 4 speakers with 6 s of speech), so meetings are built (@transcribe/core/testing,
 * build-meeting.ts):
 * - "round robin": 10 fixed meetings of 3 to 8 voices, 3 s turns taken in order (A B C A B C …), at most
 *   10 s per voice;
 * - "shuffled": 40 meetings drawn with seed 12345: 2 to 8 voices, every voice's clips cut into turns of
 *   1.5–6 s, the turns shuffled, 0–0.8 s of silence before each.
 * The reference is the VAD's speech cut at the turns (meetingReference), so the error is the diarizer's;
 * DER with a 0.25 s collar.
 */
import { join } from 'node:path';
import {
  detectSpeechLevels,
  diarizeRecording,
  QUIET_SPEECH_ONSET,
  resolveDefaultVadModelPath,
  type DiarizationEngine,
} from '@transcribe/core';
import {
  buildRoundRobinMeeting,
  buildShuffledMeeting,
  diarizationErrorRate,
  MEETING_VOICES,
  meetingReference,
  seededUniforms,
  type BuiltMeeting,
} from '@transcribe/core/testing';

const ROUND_ROBIN: string[][] = [
  ['jfk', 'ls', 'de0'],
  ['lv', 'en0', 'es1'],
  ['jfk', 'ls', 'lv', 'hifi'],
  ['de0', 'en0', 'es1', 'fr1'],
  ['pt0', 'en2', 'jfk', 'es1'],
  ['jfk', 'ls', 'lv', 'hifi', 'de0'],
  ['en0', 'es1', 'fr1', 'pt0', 'en2'],
  ['jfk', 'ls', 'lv', 'hifi', 'de0', 'en0'],
  ['es1', 'fr1', 'pt0', 'en2', 'jfk', 'ls'],
  ['jfk', 'ls', 'lv', 'hifi', 'de0', 'en0', 'es1', 'fr1'],
];
const SHUFFLED_MEETINGS = 40;
const SEED = 12345;

type Meeting = BuiltMeeting & { set: 'round robin' | 'shuffled' };

/**
 * Builds the meetings described at the top of this file into `workDir/meetings`.
 * @throws when ffmpeg fails.
 */
export async function buildMeetings(audioDir: string, workDir: string): Promise<Meeting[]> {
  const dir = join(workDir, 'meetings');
  const meetings: Meeting[] = [];
  for (const [i, voices] of ROUND_ROBIN.entries()) {
    meetings.push({ set: 'round robin', ...(await buildRoundRobinMeeting({ audioDir, workDir: dir, voices, name: `round-robin-${i}` })) });
  }
  const uniform = seededUniforms(SEED);
  const names = Object.keys(MEETING_VOICES);
  const draws = Array.from({ length: SHUFFLED_MEETINGS }, () => {
    const pool = [...names];
    return Array.from({ length: 2 + Math.floor(uniform() * 7) }, () => pool.splice(Math.floor(uniform() * pool.length), 1)[0]!);
  });
  for (const [i, voices] of draws.entries()) {
    meetings.push({ set: 'shuffled', ...(await buildShuffledMeeting({ audioDir, workDir: dir, voices, name: `shuffled-${i}`, uniform })) });
  }
  return meetings;
}

interface Result {
  meeting: Meeting;
  speech: number;
  found: number;
  der: number;
  derGiven: number;
}

async function measureMeeting(meeting: Meeting, diarizer: { engine: DiarizationEngine; modelsDir?: string }): Promise<Result> {
  const { speech, quietSpeech } = await detectSpeechLevels(meeting.wavPath, {
    modelPath: resolveDefaultVadModelPath(),
    quietThreshold: QUIET_SPEECH_ONSET,
  });
  const reference = meetingReference(speech, meeting.turns);
  const diarize = (speakers: number | null) => diarizeRecording({ wavPath: meeting.wavPath, speech, quietSpeech, speakers, ...diarizer });
  const estimated = await diarize(null);
  const given = await diarize(meeting.voices.length);
  return {
    meeting,
    speech: speech.reduce((sum, region) => sum + region.end - region.start, 0),
    found: new Set(estimated.map((turn) => turn.speaker)).size,
    der: diarizationErrorRate(reference, estimated, { collar: 0.25 }).der,
    derGiven: diarizationErrorRate(reference, given, { collar: 0.25 }).der,
  };
}

function summary(results: Result[]): string {
  const line = (label: string, group: Result[]) => {
    if (group.length === 0) return '';
    const exact = group.filter((r) => r.found === r.meeting.voices.length).length;
    const near = group.filter((r) => Math.abs(r.found - r.meeting.voices.length) <= 1).length;
    const mean = (pick: (r: Result) => number) => (group.reduce((sum, r) => sum + pick(r), 0) / group.length).toFixed(3);
    return `| ${label} | ${group.length} | ${exact} | ${near} | ${mean((r) => Math.abs(r.found - r.meeting.voices.length))} | ${mean((r) => r.der)} | ${mean((r) => r.derGiven)} |`;
  };
  const voices = (test: (n: number) => boolean) => results.filter((r) => test(r.meeting.voices.length));
  return [
    '| meetings | n | count exact | count within ±1 | mean count error | mean DER, count estimated | mean DER, count given |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    line('all', results),
    line(
      '2 voices',
      voices((n) => n === 2),
    ),
    line(
      '3–4 voices',
      voices((n) => n >= 3 && n <= 4),
    ),
    line(
      '5–8 voices',
      voices((n) => n >= 5),
    ),
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * Speaker count and DER of the built-in diarizer on the built meetings, count estimated and given, and of
 * sherpa-onnx's when `modelsDir` holds its models (docs/diarization.md "Which diarizer runs"); a missing
 * or broken model is reported, not thrown.
 * @returns a Markdown section for bench/results/quality.md.
 * @throws when ffmpeg fails or a recording cannot be read.
 */
export async function measureMeetings(audioDir: string, workDir: string, modelsDir?: string): Promise<string> {
  const meetings = await buildMeetings(audioDir, workDir);
  const sections = [
    '## Meetings built from single speakers\n',
    `${meetings.length} meetings of 2–8 voices made from the shared clips (bench/quality/measure-meetings.ts): ` +
      `${ROUND_ROBIN.length} with 3 s turns taken in order, ${SHUFFLED_MEETINGS} with shuffled turns of 1.5–6 s and ` +
      `pauses (seed ${SEED}). Reference: the VAD speech cut at the turns; DER with a 0.25 s collar.\n`,
  ];
  const diarizers = [{ engine: 'builtin' as const }, ...(modelsDir ? [{ engine: 'sherpa' as const, modelsDir }] : [])];
  for (const diarizer of diarizers) {
    const title = diarizer.engine === 'builtin' ? 'Built-in' : 'sherpa-onnx';
    const results: Result[] = [];
    try {
      for (const meeting of meetings) results.push(await measureMeeting(meeting, diarizer));
    } catch (error) {
      sections.push(`### ${title}\n\nnot measured: ${error instanceof Error ? error.message : String(error)}.\n`);
      continue;
    }
    const rows = results.map((r) => {
      const truth = r.meeting.voices.length;
      const found = r.found === truth ? String(r.found) : `**${r.found}**`;
      return `| ${r.meeting.set} | ${r.meeting.voices.join(' ')} | ${r.speech.toFixed(0)} | ${truth} | ${found} | ${r.der.toFixed(3)} | ${r.derGiven.toFixed(3)} |`;
    });
    sections.push(
      `### ${title}\n\n${summary(results)}\n\n<details><summary>Per meeting</summary>\n\n` +
        '| set | voices | speech s | speakers | found | DER estimated | DER given |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n' +
        `${rows.join('\n')}\n\n</details>\n`,
    );
  }
  return sections.join('\n');
}

// `npx tsx bench/quality/measure-meetings.ts` prints the section alone (with MODELS_DIR, sherpa-onnx's too).
if (process.argv[1] === import.meta.filename) {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const workDir = await mkdtemp(join(tmpdir(), 'meetings-'));
  try {
    const audioDir = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'audio');
    console.log(await measureMeetings(audioDir, workDir, process.env.MODELS_DIR));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
