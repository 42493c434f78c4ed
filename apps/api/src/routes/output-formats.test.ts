import { LineType, parse as parseLrc } from 'clrc';
import type { LyricLine } from 'clrc';
import Parser from 'srt-parser-2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyOutputTransformers,
  authenticateApiKey,
  findPrediction,
  parseOutputTransformers,
  type OutputFormat,
  type PredictionRow,
  type Transcript,
  getSucceededTranscript,
} from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

// Output formats (spec 2.3) and the header X-Service-Output-Transformers (spec 4.4) through HTTP.
// The output is rendered per prediction from its stored transcript model. jfk.wav is recognised
// once; the other predictions of the same link take that transcript from the cache (spec 2.6),
// so every output_format × post_process (absent / null / []) costs no further recognition on a
// 2-core machine. Each prediction's output is compared with the core renderers applied to its own
// stored model. The first prediction of a link runs alone: concurrent first downloads of one link
// are not what this file tests.

const HEADER = 'X-Service-Output-Transformers';
const STORED_SWITCHES = 'text?speakers=false&timestamps=false&pauses=true';
const ABSENT = 'absent' as const;
type PostProcess = typeof ABSENT | null | string[];

interface Case {
  name: string;
  format: OutputFormat;
  postProcess: PostProcess;
  /** Header sent on create (stored for every later GET). */
  header?: string;
}

const FORMATS: OutputFormat[] = ['json', 'json2', 'text', 'srt', 'lrc'];
const POST_PROCESS: [string, PostProcess][] = [
  ['absent', ABSENT],
  ['null', null],
  ['list', []],
];
const JFK_CASES: Case[] = [
  ...FORMATS.flatMap((format) => POST_PROCESS.map(([label, postProcess]) => ({ name: `${format}-${label}`, format, postProcess }))),
  { name: 'text-header', format: 'text', postProcess: ABSENT, header: STORED_SWITCHES },
];
const SILENCE = 'nonspeech/generated_digital_silence_10s.wav';

type Body = Record<string, unknown>;
interface Done {
  id: string;
  body: Body;
}

function inputOf(audio: string, format: OutputFormat, postProcess: PostProcess): Body {
  return postProcess === ABSENT ? { audio, output_format: format } : { audio, output_format: format, post_process: postProcess };
}

async function create(t: TestService, input: Body, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ input }),
  });
}

async function get(t: TestService, id: string, header?: string): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { authorization: `Bearer ${t.key}` };
  if (header !== undefined) headers[HEADER] = header;
  const response = await fetch(`${t.replicateBase}/v1/predictions/${id}`, { headers });
  return { status: response.status, body: (await response.json()) as Body };
}

async function createAndWait(t: TestService, input: Body, header?: string): Promise<Done> {
  const response = await create(t, input, header === undefined ? {} : { [HEADER]: header });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return { id, body: await pollPrediction(t.replicateBase, t.key, id, 360_000) };
}

async function storedRow(t: TestService, id: string): Promise<PredictionRow> {
  const key = await authenticateApiKey(t.service.ctx.database.db, t.key);
  return findPrediction(t.service.ctx.database.db, id, key.id);
}

async function countPredictions(t: TestService): Promise<number> {
  const { rows } = await t.service.ctx.database.executeSql('SELECT count(*)::int AS n FROM predictions');
  return (rows[0] as { n: number }).n;
}

/** The output the core renderers give for a stored row and a header (null = none). */
function expectedOutput(row: PredictionRow, header: string | null): unknown {
  const params = row.params;
  return applyOutputTransformers({
    model: getSucceededTranscript(row),
    format: params.output_format,
    postProcess: params.post_process,
    results: {},
    transformer: parseOutputTransformers(header),
  });
}

/** The transcript part of an output: the output itself, or `output.transcript` for a list (2.3.2). */
function transcriptOf(output: unknown, postProcess: PostProcess): unknown {
  if (postProcess === ABSENT || postProcess === null) return output;
  expect(Object.keys(output as Body).sort()).toEqual(['results', 'transcript']);
  expect((output as Body).results).toEqual({});
  return (output as Body).transcript;
}

function wordsOf(text: string): string[] {
  return text.split(/\s+/u).filter((word) => word !== '');
}

function modelWords(model: Transcript): string[] {
  return model.segments.flatMap((segment) => wordsOf(segment.text));
}

/** Checks a SubRip string: strict layout, parsed by srt-parser-2, times inside the recording. */
function checkSrt(srt: string, model: Transcript): void {
  const blocks = srt.split('\n\n');
  blocks.forEach((block, i) => {
    expect(`${block}${i < blocks.length - 1 ? '\n' : ''}`).toMatch(
      /^\d+\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n[^\n]+(\n[^\n]+)?\n$/u,
    );
  });
  const cues = new Parser().fromSrt(srt);
  expect(cues.length).toBe(blocks.length);
  cues.forEach((cue, i) => {
    expect(cue.id).toBe(String(i + 1));
    expect(cue.startSeconds).toBeGreaterThanOrEqual(0);
    expect(cue.endSeconds).toBeGreaterThanOrEqual(cue.startSeconds);
    expect(cue.endSeconds).toBeLessThanOrEqual(model.source.length + 0.001);
    if (i > 0) expect(cue.startSeconds).toBeGreaterThanOrEqual(cues[i - 1]!.startSeconds);
    for (const line of cue.text.split('\n')) expect([...line].length).toBeLessThanOrEqual(42);
  });
  expect(cues.flatMap((cue) => wordsOf(cue.text))).toEqual(modelWords(model));
}

/** Checks an LRC string: every line a lyric line clrc reads, times inside the recording. */
function checkLrc(lrc: string, model: Transcript): void {
  const parsed = parseLrc(lrc);
  expect(parsed.filter((line) => line.type === LineType.INVALID).map((line) => line.raw)).toEqual(['']);
  expect(parsed.filter((line) => line.type === LineType.METADATA)).toEqual([]);
  const lyrics = parsed.filter((line): line is LyricLine => line.type === LineType.LYRIC);
  expect(lyrics.length).toBe(lrc.split('\n').length - 1);
  lyrics.forEach((line, i) => {
    expect(line.startMillisecond).toBeLessThanOrEqual(model.source.length * 1000 + 1);
    if (i > 0) expect(line.startMillisecond).toBeGreaterThanOrEqual(lyrics[i - 1]!.startMillisecond);
    expect([...line.content].length).toBeLessThanOrEqual(42);
  });
  expect(lyrics.at(-1)!.content).toBe(''); // the last cue is cleared at its end
  expect(lyrics.flatMap((line) => wordsOf(line.content))).toEqual(modelWords(model));
}

/** Checks the transcript in `format` against the rules of spec 2.3.3–2.3.5 (docs/formats.md). */
function checkTranscript(format: OutputFormat, transcript: unknown, model: Transcript): void {
  if (format === 'json' || format === 'json2') {
    const object = transcript as Body;
    const members = format === 'json' ? ['language', 'segments', 'source', 'vad'] : ['languages', 'segments', 'source', 'speakers', 'vad'];
    expect(Object.keys(object).sort()).toEqual(members);
    expect(object.source).toEqual({ length: expect.closeTo(11, 0) as number, format: 'wav' });
    expect((object.segments as unknown[]).length).toBeGreaterThan(0);
    if (format === 'json') expect(object.language).toBe('en');
    if (format === 'json2') {
      expect(object.languages).toEqual([{ code: 'en', name: 'English', probability: null, duration: null }]);
      // jfk.wav has under 10 s of speech: one speaker, with their talk time (diarization `auto`).
      expect(object.speakers).toEqual([{ label: 'SPEAKER_1', duration: expect.any(Number) as number }]);
    }
    return;
  }
  expect(typeof transcript).toBe('string');
  const text = transcript as string;
  expect(text.endsWith('\n')).toBe(true);
  if (format === 'text') {
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d\d - \d\d:\d\d:\d\d\.\d\d\] SPEAKER_1: \S/u);
    expect(wordsOf(text.replace(/\[[^\]]*\]/gu, '').replace(/SPEAKER_\d+:/gu, ''))).toEqual(modelWords(model));
  }
  if (format === 'srt') checkSrt(text, model);
  if (format === 'lrc') checkLrc(text, model);
}

describe('output formats and the output control header through the API', () => {
  let t: TestService;
  let files: FileServer;
  const jfk = new Map<string, Done>();
  const silence = new Map<OutputFormat, Done>();

  beforeAll(async () => {
    // One test rewrites a finished prediction's stored transcript behind the service's back (no code path
    // of the service does), so the in-memory cache of finished answers is off here (response-caches.test.ts covers it).
    t = await startTestService('pglite', { PREDICTION_CACHE_BYTES: '0' });
    files = await serveFiles(AUDIO_DIR);
    const audio = `${files.url}/jfk.wav`;
    const silent = `${files.url}/${SILENCE}`;
    const [first, ...rest] = JFK_CASES;
    jfk.set(first!.name, await createAndWait(t, inputOf(audio, first!.format, first!.postProcess)));
    silence.set('json', await createAndWait(t, inputOf(silent, 'json', [])));
    await Promise.all([
      ...rest.map(async (c) => jfk.set(c.name, await createAndWait(t, inputOf(audio, c.format, c.postProcess), c.header))),
      ...FORMATS.slice(1).map(async (format) => silence.set(format, await createAndWait(t, inputOf(silent, format, [])))),
    ]);
  }, 400_000);

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  describe('output_format × post_process on jfk.wav (spec 2.3.1–2.3.5)', () => {
    it.each(JFK_CASES.filter((c) => c.header === undefined))(
      'should give the $format transcript with post_process $postProcess in the right shape',
      async ({ name, format, postProcess }) => {
        const done = jfk.get(name)!;
        expect(done.body.status, String(done.body.error)).toBe('succeeded');
        if (name !== JFK_CASES[0]!.name) expect(String(done.body.logs)).toContain('transcript taken from the cache'); // 1 recognition in all
        const row = await storedRow(t, done.id);
        const model = getSucceededTranscript(row);
        expect(done.body.output).toEqual(expectedOutput(row, null));
        expect(row.output).toEqual(done.body.output); // the stored default form is what GET shows
        const transcript = transcriptOf(done.body.output, postProcess);
        if (postProcess !== ABSENT && postProcess !== null) expect(done.body.output).toEqual({ transcript, results: {} });
        checkTranscript(format, transcript, model);
      },
    );

    it('should give the json2 form with one language of unknown probability and the speakers member', () => {
      const output = jfk.get('json2-null')!.body.output as Body;
      expect(output.languages).toEqual([{ code: 'en', name: 'English', probability: null, duration: null }]);
      expect(output).toHaveProperty('speakers');
      expect(Array.isArray(output.speakers)).toBe(true);
    });

    it('should store the plain text form for output_format text even when a header was sent on create', async () => {
      const row = await storedRow(t, jfk.get('text-header')!.id);
      expect(row.outputTransformers).toBe(STORED_SWITCHES);
      expect(row.output).toEqual(expectedOutput(row, null));
      checkTranscript('text', row.output, getSucceededTranscript(row));
      const header = await get(t, row.id, 'text'); // the header's defaults are those of output_format text
      expect(header.body.output).toEqual(row.output);
    });
  });

  describe(`header ${HEADER} (spec 4.4)`, () => {
    it('should apply the header sent on create to every later GET without the header', async () => {
      const done = jfk.get('text-header')!;
      const row = await storedRow(t, done.id);
      const expected = expectedOutput(row, STORED_SWITCHES);
      expect(typeof expected).toBe('string');
      expect(String(expected)).not.toMatch(/^\[/mu); // no time labels
      expect(wordsOf(String(expected).replace(/^\(pause .*\)$/gmu, ''))).toEqual(modelWords(getSucceededTranscript(row)));
      expect(done.body.output).toBe(expected);
      expect((await get(t, done.id)).body.output).toBe(expected);
      expect((await get(t, done.id)).body.output).toBe(expected);
    });

    it('should let a header on GET override the one stored on create', async () => {
      const id = jfk.get('text-header')!.id;
      const row = await storedRow(t, id);
      const override = await get(t, id, 'text?timestamps=true&pauses=false');
      expect(override.status).toBe(200);
      expect(override.body.output).toBe(expectedOutput(row, 'text?timestamps=true&pauses=false'));
      expect(String(override.body.output)).toMatch(/^\[00:00:\d\d\.\d\d - 00:00:\d\d\.\d\d\] /u);
      const empty = await get(t, id, ''); // an empty header on GET means "no transformer"
      expect(empty.status).toBe(200);
      expect(empty.body.output).toEqual(row.output);
    });

    it.each([
      ['json-absent', 'plain'],
      ['json2-null', 'plain'],
      ['srt-null', 'plain'],
      ['lrc-absent', 'plain'],
      ['json-list', 'list'],
      ['json2-list', 'list'],
      ['text-list', 'list'],
      ['lrc-list', 'list'],
    ])('should turn the %s output into plain text on GET', async (name, shape) => {
      const id = jfk.get(name)!.id;
      const row = await storedRow(t, id);
      for (const value of [
        'text',
        'text?timestamps=false',
        'text?speakers=true&timestamps=false&pauses=true',
        ' text?timestamps=FALSE&pauses=1 ',
      ]) {
        const { status, body } = await get(t, id, value);
        expect(status).toBe(200);
        expect(body.output).toEqual(expectedOutput(row, value));
        const text = shape === 'plain' ? body.output : (body.output as Body).transcript;
        expect(typeof text).toBe('string');
        if (shape === 'list') expect((body.output as Body).results).toEqual({});
        expect(String(text).startsWith('[')).toBe(!/timestamps=false/iu.test(value));
      }
      expect((await get(t, id)).body.output).toEqual(row.output); // without the header: the stored form
    });

    it('should re-render the stored model, honouring speakers, timestamps and pauses', async () => {
      const id = jfk.get('json-absent')!.id;
      const row = await storedRow(t, id);
      const original = getSucceededTranscript(row);
      // As diarization will write it: the words of the first and last VAD interval as two
      // speakers' segments, so that the silence between them is a pause of more than 2 s.
      const [first, last] = [original.vad[0]!, original.vad.at(-1)!];
      const words = original.segments.flatMap((segment) => segment.words);
      const segmentOf = (span: { start: number; end: number }, speaker: string) => {
        const mine = words.filter((word) => word.start >= span.start - 0.1 && word.end <= span.end + 0.1);
        return {
          start: mine[0]!.start,
          end: mine.at(-1)!.end,
          text: mine.map((w) => w.text).join(' '),
          speaker,
          language: 'en',
          words: mine,
        };
      };
      const model: Transcript = { ...original, segments: [segmentOf(first, 'SPEAKER_1'), segmentOf(last, 'SPEAKER_2')], speakers: [] };
      const gap = model.segments[1]!.start - model.segments[0]!.end;
      expect(gap).toBeGreaterThan(2);
      await t.service.ctx.database.executeSql('UPDATE predictions SET transcript = $1::jsonb WHERE id = $2', [JSON.stringify(model), id]);
      try {
        const [a, b] = model.segments.map((segment) => segment.text);
        const pause = `(pause ${(Math.round(gap * 10) / 10).toFixed(1)} s)`;
        const cases: [string, string][] = [
          ['text?speakers=true&timestamps=false&pauses=true', `SPEAKER_1: ${a}\n${pause}\nSPEAKER_2: ${b}\n`],
          ['text?speakers=false&timestamps=false&pauses=true', `${a}\n${pause}\n${b}\n`],
          ['text?speakers=0&timestamps=false', `${a}\n${b}\n`],
          ['text?timestamps=false&speakers=True', `SPEAKER_1: ${a}\nSPEAKER_2: ${b}\n`],
        ];
        for (const [value, text] of cases) expect((await get(t, id, value)).body.output).toBe(text);
        const timed = String((await get(t, id, 'text?pauses=true')).body.output).split('\n');
        expect(timed[0]).toMatch(/^\[00:00:0\d\.\d\d - 00:00:0\d\.\d\d\] SPEAKER_1: /u);
        expect(timed[1]).toBe(pause);
        expect(timed[2]).toMatch(/^\[00:00:\d\d\.\d\d - 00:00:\d\d\.\d\d\] SPEAKER_2: /u);
        expect((await get(t, id)).body.output).toEqual(row.output); // no header: the form stored at the end of the run
      } finally {
        await t.service.ctx.database.executeSql('UPDATE predictions SET transcript = $1::jsonb WHERE id = $2', [
          JSON.stringify(original),
          id,
        ]);
      }
    });

    const MALFORMED: [string, RegExp][] = [
      ['Text', /unknown output transformer "Text"/u],
      ['json', /unknown output transformer "json"/u],
      ['text,srt', /unknown output transformer/u],
      ['text?', /must be followed by switches/u],
      ['text?speakers=yes', /switch "speakers" must be true or false/u],
      ['text?speakers', /switch "speakers" must be true or false/u],
      ['text?speakers=', /switch "speakers" must be true or false/u],
      ['text?colour=true', /unknown switch "colour"/u],
      ['text?Speakers=true', /unknown switch "Speakers"/u],
      ['text?pauses=true&pauses=false', /given more than once/u],
      ['text?pauses=true&', /empty switch/u],
      ['text?pauses=true&&speakers=false', /empty switch/u],
      ['text?pauses=%74rue', /must be true or false/u],
    ];

    it.each(MALFORMED)('should refuse "%s" on create with 422 and create nothing', async (value, detail) => {
      const before = await countPredictions(t);
      const response = await create(t, { audio: `${files.url}/jfk.wav` }, { [HEADER]: value });
      expect(response.status).toBe(422);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/u);
      const body = (await response.json()) as { detail: string; status: number };
      expect(body.status).toBe(422);
      expect(body.detail).toContain(HEADER);
      expect(body.detail).toMatch(detail);
      expect(await countPredictions(t)).toBe(before);
    });

    it.each(MALFORMED)('should refuse "%s" on GET with 422', async (value, detail) => {
      const { status, body } = await get(t, jfk.get('json-absent')!.id, value);
      expect(status).toBe(422);
      expect(String(body.detail)).toContain(HEADER);
      expect(String(body.detail)).toMatch(detail);
    });

    it('should apply the header to the outputs of the prediction list too', async () => {
      const list = async (header?: string) => {
        const headers: Record<string, string> = { authorization: `Bearer ${t.key}` };
        if (header !== undefined) headers[HEADER] = header;
        const response = await fetch(`${t.replicateBase}/v1/predictions`, { headers });
        return { status: response.status, body: (await response.json()) as { results?: Body[]; detail?: string } };
      };
      const plain = await list('text?timestamps=false');
      expect(plain.status).toBe(200);
      const listed = plain.body.results!.find((p) => p.id === jfk.get('json2-null')!.id);
      expect(listed?.output).toEqual(expectedOutput(await storedRow(t, jfk.get('json2-null')!.id), 'text?timestamps=false'));
      const refused = await list('text?timestamps=no');
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toContain(HEADER);
    });

    it('should refuse a malformed header on GET whatever the status of the prediction', async () => {
      const failed = await createAndWait(t, { audio: `${files.url}/no-such-file.wav` });
      expect(failed.body.status).toBe('failed');
      const { status, body } = await get(t, failed.id, 'text?speakers=maybe');
      expect(status).toBe(422);
      expect(String(body.detail)).toContain(HEADER);
      expect((await get(t, failed.id, 'text')).body.output).toBeNull();
    });
  });

  describe('a recording without speech (spec 2.3.6)', () => {
    it.each(FORMATS)('should give an empty %s transcript with empty results', async (format) => {
      const done = silence.get(format)!;
      expect(done.body.status, String(done.body.error)).toBe('succeeded');
      const output = done.body.output as { transcript: unknown; results: unknown };
      expect(Object.keys(output).sort()).toEqual(['results', 'transcript']);
      expect(output.results).toEqual({});
      const source = { length: expect.closeTo(10, 1) as number, format: 'wav' };
      const expected: Record<OutputFormat, unknown> = {
        json: { source, segments: [], vad: [], language: null },
        json2: { source, segments: [], vad: [], languages: [], speakers: [] },
        text: '',
        srt: '',
        lrc: '',
      };
      expect(output.transcript).toEqual(expected[format]);
      for (const value of ['text', 'text?speakers=false&timestamps=false&pauses=true']) {
        expect((await get(t, done.id, value)).body.output).toEqual({ transcript: '', results: {} });
      }
    });
  });
});
