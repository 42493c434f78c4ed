/**
 * Speaker count and DER of the diarizer on meetings built from the real single-speaker recordings of
 * ../shared/audio, on three sets of voices (bench/quality/voice-split.ts, docs/diarization.md "Held-out split"):
 * - in-sample: the 50 meetings the current constants were tuned and tested on, drawn from ALL voices
 *   (10 "round robin" meetings of 3–8 voices with 3 s turns taken in order, at most 10 s per voice; 40
 *   "shuffled" ones drawn with seed 12345: 2–8 voices, every voice's clips cut into turns of 1.5–6 s,
 *   shuffled, 0–0.8 s of silence before each);
 * - calibration: meetings of CALIBRATION_VOICES only, the only ones a constant may be calibrated on;
 * - held-out: meetings of HELD_OUT_VOICES only, by which a change to the diarizer is judged; plus the same
 *   kind of held-out meetings made far-field by simulation (reverberation and noise, makeFarField of @transcribe/core/testing);
 * and, per set, its voices one at a time (single speakers: the count must stay 1).
 * The reference is the VAD's speech cut at the turns (meetingReference), so the error is the diarizer's.
 * DER as the field reports it (no collar, overlapped speech counted; the built meetings have no overlap)
 * and with a 0.25 s collar beside it.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
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
  makeFarField,
  MEETING_VOICES,
  meetingReference,
  seededUniforms,
  type BuiltMeeting,
} from '@transcribe/core/testing';
import { CALIBRATION_VOICES, HELD_OUT_SINGLE_RECORDINGS, HELD_OUT_VOICES } from './voice-split.ts';

const run = promisify(execFile);

/** The in-sample meetings (all voices), as measured before the split; kept to compare with. */
const IN_SAMPLE_ROUND_ROBIN: string[][] = [
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
/** The voices the in-sample draw picked from, in MEETING_VOICES's order when it was made. */
const IN_SAMPLE_VOICES = ['jfk', 'ls', 'lv', 'hifi', 'de0', 'de1', 'en0', 'en1', 'en2', 'es0', 'es1', 'fr0', 'fr1', 'pt0', 'pt1'];
const IN_SAMPLE_SHUFFLED = 40;
const IN_SAMPLE_SEED = 12345;
/** Shuffled meetings per split set, and their seeds (one per set, fixed). */
const SPLIT_SHUFFLED = 30;
const SPLIT_SEEDS = { calibration: 777, 'held-out': 4242 } as const;
/** Simulated far-field meetings of 4 held-out voices (as AMI's 4-speaker meetings), and their seed. */
const FAR_FIELD_MEETINGS = 10;
const FAR_FIELD_SEED = 9090;
/**
 * The same simulation on 4 calibration voices, another seed (draw and noise): the far-field set a count
 * rule may be calibrated on (the held-out far-field set only judges it).
 */
const CALIBRATION_FAR_FIELD_SEED = 6060;
/** Added to a calibration far-field meeting's index for its room and noise seeds (the held-out ones use the index itself). */
const CALIBRATION_NOISE_SEED_OFFSET = 500;

export type MeetingSet = 'in-sample' | 'calibration' | 'held-out' | 'held-out far-field' | 'calibration far-field';
type Meeting = BuiltMeeting & { set: MeetingSet; kind: string };

/** Round-robin meetings of a split set: its voices in order, 3, 4, … of them, two different groups per size. */
function roundRobinGroups(voices: readonly string[]): string[][] {
  const groups: string[][] = [];
  for (const size of [3, 4, 5, voices.length]) {
    groups.push(voices.slice(0, size));
    if (size < voices.length) groups.push([...voices.slice(voices.length - size)].reverse());
  }
  return groups;
}

function drawGroups(voices: readonly string[], uniform: () => number, count: number, sizes: () => number): string[][] {
  return Array.from({ length: count }, () => {
    const pool = [...voices];
    return Array.from({ length: sizes() }, () => pool.splice(Math.floor(uniform() * pool.length), 1)[0]!);
  });
}

/**
 * Builds the meetings described at the top of this file into `workDir/meetings`; `sets` picks which.
 * @throws when ffmpeg fails.
 */
export async function buildMeetings(
  audioDir: string,
  workDir: string,
  sets: readonly MeetingSet[] = ['in-sample', 'calibration', 'held-out', 'held-out far-field', 'calibration far-field'],
): Promise<Meeting[]> {
  const dir = join(workDir, 'meetings');
  const meetings: Meeting[] = [];
  const roundRobin = async (set: MeetingSet, groups: string[][]) => {
    for (const [i, voices] of groups.entries()) {
      const built = await buildRoundRobinMeeting({ audioDir, workDir: dir, voices, name: `${set}-round-robin-${i}` });
      meetings.push({ set, kind: 'round robin', ...built });
    }
  };
  const shuffled = async (set: MeetingSet, groups: string[][], uniform: () => number) => {
    for (const [i, voices] of groups.entries()) {
      const built = await buildShuffledMeeting({ audioDir, workDir: dir, voices, name: `${set.replace(' ', '-')}-shuffled-${i}`, uniform });
      meetings.push({ set, kind: 'shuffled', ...built });
    }
  };
  if (sets.includes('in-sample')) {
    await roundRobin('in-sample', IN_SAMPLE_ROUND_ROBIN);
    const uniform = seededUniforms(IN_SAMPLE_SEED);
    await shuffled(
      'in-sample',
      drawGroups(IN_SAMPLE_VOICES, uniform, IN_SAMPLE_SHUFFLED, () => 2 + Math.floor(uniform() * 7)),
      uniform,
    );
  }
  for (const [set, voices] of [
    ['calibration', CALIBRATION_VOICES],
    ['held-out', HELD_OUT_VOICES],
  ] as const) {
    if (!sets.includes(set)) continue;
    await roundRobin(set, roundRobinGroups(voices));
    const uniform = seededUniforms(SPLIT_SEEDS[set]);
    const most = Math.min(8, voices.length);
    await shuffled(
      set,
      drawGroups(voices, uniform, SPLIT_SHUFFLED, () => 2 + Math.floor(uniform() * (most - 1))),
      uniform,
    );
  }
  // The far-field sets: the same simulation of 4-voice shuffled meetings over each split's voices.
  const farFieldSets = [
    { set: 'held-out far-field', voices: HELD_OUT_VOICES, seed: FAR_FIELD_SEED, name: 'far-field', noiseSeedOffset: 0 },
    {
      set: 'calibration far-field',
      voices: CALIBRATION_VOICES,
      seed: CALIBRATION_FAR_FIELD_SEED,
      name: 'calibration-far-field',
      noiseSeedOffset: CALIBRATION_NOISE_SEED_OFFSET,
    },
  ] as const;
  for (const { set, voices: setVoices, seed, name, noiseSeedOffset } of farFieldSets) {
    if (!sets.includes(set)) continue;
    const uniform = seededUniforms(seed);
    for (const [i, voices] of drawGroups(setVoices, uniform, FAR_FIELD_MEETINGS, () => 4).entries()) {
      const built = await buildShuffledMeeting({ audioDir, workDir: dir, voices, name: `${name}-source-${i}`, uniform });
      const wavPath = join(dir, `${name}-${i}.wav`);
      await makeFarField(built.wavPath, wavPath, i + noiseSeedOffset);
      meetings.push({ set, kind: 'shuffled, far-field', ...built, wavPath });
    }
  }
  return meetings;
}

/** One voice alone per recording: each voice's clips of MEETING_VOICES played one after the other; held-out also the single recordings. */
export async function buildSingles(
  audioDir: string,
  workDir: string,
  set: 'calibration' | 'held-out',
): Promise<{ name: string; wavPath: string }[]> {
  const dir = join(workDir, 'singles');
  await mkdir(dir, { recursive: true });
  const singles: { name: string; wavPath: string }[] = [];
  for (const voice of set === 'calibration' ? CALIBRATION_VOICES : HELD_OUT_VOICES) {
    const clips = MEETING_VOICES[voice]!;
    const wavPath = join(dir, `${voice}.wav`);
    const inputs = clips.flatMap(([clip, from, to]) => ['-ss', String(from), '-t', String(to - from), '-i', join(audioDir, clip)]);
    const concat = `${clips.map((_, i) => `[${i}:a]`).join('')}concat=n=${clips.length}:v=0:a=1`;
    await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...inputs, '-filter_complex', concat, '-ar', '16000', '-ac', '1', wavPath]);
    singles.push({ name: voice, wavPath });
  }
  if (set === 'held-out') {
    for (const recording of HELD_OUT_SINGLE_RECORDINGS) {
      const [clip, channel] = recording.split('#');
      const wavPath = join(dir, `${recording.replace(/[/#.]/g, '-')}.wav`);
      const pan = channel === undefined ? [] : ['-af', `pan=mono|c0=${channel === 'left' ? 'c0' : 'c1'}`];
      await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', '-i', join(audioDir, clip!), ...pan, '-ar', '16000', '-ac', '1', wavPath]);
      singles.push({ name: recording, wavPath });
    }
  }
  return singles;
}

interface Ders {
  /** No collar, overlap counted (as pyannote's published figures). */
  open: number;
  /** 0.25 s collar. */
  collar: number;
}

interface Result {
  meeting: Meeting;
  speech: number;
  found: number;
  estimated: Ders;
  given: Ders;
}

type Diarizer = { engine: DiarizationEngine; modelsDir?: string };

async function speechOf(wavPath: string) {
  return detectSpeechLevels(wavPath, { modelPath: resolveDefaultVadModelPath(), quietThreshold: QUIET_SPEECH_ONSET });
}

function ders(reference: Parameters<typeof diarizationErrorRate>[0], hypothesis: Parameters<typeof diarizationErrorRate>[1]): Ders {
  return {
    open: diarizationErrorRate(reference, hypothesis).der,
    collar: diarizationErrorRate(reference, hypothesis, { collar: 0.25 }).der,
  };
}

async function measureMeeting(meeting: Meeting, diarizer: Diarizer): Promise<Result> {
  const { speech, quietSpeech } = await speechOf(meeting.wavPath);
  const reference = meetingReference(speech, meeting.turns);
  const diarize = (speakers: number | null) => diarizeRecording({ wavPath: meeting.wavPath, speech, quietSpeech, speakers, ...diarizer });
  const estimated = await diarize(null);
  const given = await diarize(meeting.voices.length);
  return {
    meeting,
    speech: speech.reduce((sum, region) => sum + region.end - region.start, 0),
    found: new Set(estimated.map((turn) => turn.speaker)).size,
    estimated: ders(reference, estimated),
    given: ders(reference, given),
  };
}

/** Speakers the diarizer finds in a single-speaker recording (count estimated). */
async function countSingle(wavPath: string, diarizer: Diarizer): Promise<number> {
  const { speech, quietSpeech } = await speechOf(wavPath);
  const turns = await diarizeRecording({ wavPath, speech, quietSpeech, speakers: null, ...diarizer });
  return new Set(turns.map((turn) => turn.speaker)).size;
}

const mean = (group: Result[], pick: (r: Result) => number) => (group.reduce((sum, r) => sum + pick(r), 0) / group.length).toFixed(3);

function summaryRow(label: string, group: Result[], singles?: { stay: number; of: number }): string {
  if (group.length === 0) return '';
  const exact = group.filter((r) => r.found === r.meeting.voices.length).length;
  const near = group.filter((r) => Math.abs(r.found - r.meeting.voices.length) <= 1).length;
  const percent = (n: number) => `${n} (${Math.round((100 * n) / group.length)} %)`;
  return (
    `| ${label} | ${group.length} | ${percent(exact)} | ${percent(near)} | ${singles ? `${singles.stay} of ${singles.of}` : '–'} | ` +
    `${mean(group, (r) => Math.abs(r.found - r.meeting.voices.length))} | ${mean(group, (r) => r.given.open)} | ${mean(group, (r) => r.given.collar)} | ` +
    `${mean(group, (r) => r.estimated.open)} | ${mean(group, (r) => r.estimated.collar)} |`
  );
}

const SUMMARY_HEAD =
  '| meetings | n | count exact | count within ±1 | single speakers that stay 1 | mean count error | DER count given, no collar | DER count given, 0.25 s collar | DER count estimated, no collar | DER count estimated, 0.25 s collar |\n' +
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';

/**
 * Speaker count and DER of the built-in diarizer on the built meetings of every set, count estimated and
 * given, and of sherpa-onnx's when `modelsDir` holds its models (docs/diarization.md "Which diarizer runs");
 * a missing or broken model is reported, not thrown.
 * @returns a Markdown section for bench/results/quality.md.
 * @throws when ffmpeg fails or a recording cannot be read.
 */
export async function measureMeetings(
  audioDir: string,
  workDir: string,
  modelsDir?: string,
  sets?: readonly MeetingSet[],
): Promise<string> {
  const meetings = await buildMeetings(audioDir, workDir, sets);
  const singles = {
    calibration: await buildSingles(audioDir, workDir, 'calibration'),
    'held-out': await buildSingles(audioDir, workDir, 'held-out'),
  };
  const sections = [
    '## Meetings built from single speakers: held-out and in-sample\n',
    'Built by bench/quality/measure-meetings.ts from the shared clips; voices split by speaker in ' +
      'bench/quality/voice-split.ts (calibration: ' +
      `${CALIBRATION_VOICES.join(', ')}; held-out: ${HELD_OUT_VOICES.join(', ')}, and as single speakers ${HELD_OUT_SINGLE_RECORDINGS.join(', ')}).\n`,
    '- **in-sample**: the 50 meetings (all 15 voices; 10 round robin, 40 shuffled, seed 12345) the current constants were tuned and tested on.\n' +
      `- **calibration** / **held-out**: ${roundRobinGroups(CALIBRATION_VOICES).length} round-robin and ${SPLIT_SHUFFLED} shuffled meetings of each set's voices only ` +
      `(seeds ${SPLIT_SEEDS.calibration} / ${SPLIT_SEEDS['held-out']}; 2–8 voices / 2–7 voices). A change to the diarizer is judged by **held-out**.\n` +
      `- **held-out far-field**: ${FAR_FIELD_MEETINGS} shuffled meetings of 4 held-out voices (seed ${FAR_FIELD_SEED}), simulated far-field (room response RT60 ≈ 0.5 s, band 100–6000 Hz, pink noise ~15 dB down). A stand-in: no real far-field meeting of unseen voices is in the shared audio. **calibration far-field**: the same simulation on 4 calibration voices (seed ${CALIBRATION_FAR_FIELD_SEED}), the far-field set a count rule may be calibrated on.\n` +
      '- Caveat: the constants measured here were calibrated (before the split existed) on all the shared audio, held-out voices included, so for them "held-out" is not yet out-of-sample.\n',
    'Reference: the VAD speech cut at the turns. DER with no collar and overlap counted (as pyannote publishes AMI / VoxConverse figures; the built meetings have no overlap), and with a 0.25 s collar. Single speakers: each voice of the set alone, count estimated.\n',
  ];
  const diarizers: Diarizer[] = [{ engine: 'builtin' }, ...(modelsDir ? [{ engine: 'sherpa' as const, modelsDir }] : [])];
  for (const diarizer of diarizers) {
    const title = diarizer.engine === 'builtin' ? 'Built-in' : 'sherpa-onnx';
    const results: Result[] = [];
    const stays: Record<'calibration' | 'held-out', string[]> = { calibration: [], 'held-out': [] };
    const singleCounts: Record<'calibration' | 'held-out', { name: string; found: number }[]> = { calibration: [], 'held-out': [] };
    try {
      for (const meeting of meetings) results.push(await measureMeeting(meeting, diarizer));
      for (const set of ['calibration', 'held-out'] as const) {
        for (const single of singles[set]) {
          const found = await countSingle(single.wavPath, diarizer);
          singleCounts[set].push({ name: single.name, found });
          if (found === 1) stays[set].push(single.name);
        }
      }
    } catch (error) {
      sections.push(`### ${title}\n\nnot measured: ${error instanceof Error ? error.message : String(error)}.\n`);
      continue;
    }
    const inSet = (set: MeetingSet) => results.filter((r) => r.meeting.set === set);
    const stay = (set: 'calibration' | 'held-out') => ({ stay: stays[set].length, of: singles[set].length });
    const sizes = (set: MeetingSet, test: (n: number) => boolean) => inSet(set).filter((r) => test(r.meeting.voices.length));
    const rows = [
      summaryRow('**held-out**', inSet('held-out'), stay('held-out')),
      summaryRow(
        'held-out, 2 voices',
        sizes('held-out', (n) => n === 2),
      ),
      summaryRow(
        'held-out, 3–4 voices',
        sizes('held-out', (n) => n >= 3 && n <= 4),
      ),
      summaryRow(
        'held-out, 5–7 voices',
        sizes('held-out', (n) => n >= 5),
      ),
      summaryRow('**held-out far-field** (simulated, 4 voices)', inSet('held-out far-field')),
      summaryRow('calibration', inSet('calibration'), stay('calibration')),
      summaryRow('calibration far-field (simulated, 4 voices)', inSet('calibration far-field')),
      summaryRow('in-sample (before the split)', inSet('in-sample')),
    ].filter(Boolean);
    const perMeeting = results.map((r) => {
      const truth = r.meeting.voices.length;
      const found = r.found === truth ? String(r.found) : `**${r.found}**`;
      const f = (d: Ders) => `${d.open.toFixed(3)} | ${d.collar.toFixed(3)}`;
      return `| ${r.meeting.set} | ${r.meeting.kind} | ${r.meeting.voices.join(' ')} | ${r.speech.toFixed(0)} | ${truth} | ${found} | ${f(r.given)} | ${f(r.estimated)} |`;
    });
    const singleRows = (['calibration', 'held-out'] as const).flatMap((set) =>
      singleCounts[set].map((s) => `| ${set} | ${s.name} | ${s.found === 1 ? '1' : `**${s.found}**`} |`),
    );
    sections.push(
      `### ${title}\n\n${SUMMARY_HEAD}\n${rows.join('\n')}\n\n<details><summary>Per meeting</summary>\n\n` +
        '| set | kind | voices | speech s | speakers | found | DER given, no collar | DER given, collar | DER estimated, no collar | DER estimated, collar |\n' +
        '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n' +
        `${perMeeting.join('\n')}\n\n</details>\n\n<details><summary>Single speakers</summary>\n\n| set | voice | found |\n| --- | --- | ---: |\n${singleRows.join('\n')}\n\n</details>\n`,
    );
  }
  return sections.join('\n');
}

// `npx tsx bench/quality/measure-meetings.ts [set …]` prints the section alone (with MODELS_DIR, sherpa-onnx's too).
if (process.argv[1] === import.meta.filename) {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const workDir = await mkdtemp(join(tmpdir(), 'meetings-'));
  try {
    const audioDir = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'audio');
    const sets = process.argv.slice(2) as MeetingSet[];
    console.log(await measureMeetings(audioDir, workDir, process.env.MODELS_DIR, sets.length > 0 ? sets : undefined));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
