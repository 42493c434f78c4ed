import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { BadRequestError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRIVOX_READER, writeReaderThenJfk } from '../test-support/join-clips.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const LV = LIBRIVOX_READER;

interface DiarizedSegment {
  type: string;
  id: string;
  start: number;
  end: number;
  speaker: string;
  text: string;
}

/**
 * `response_format=diarized_json` with `known_speaker_names[]` and `known_speaker_references[]`
 * through the real openai SDK (its multipart encoding of arrays): a LibriVox reader, given by a
 * 7 s data: URL of another of her clips, is named in a conversation of hers followed by JFK, who
 * was not given and keeps a letter (docs/speakers.md, docs/openai-api.md).
 */
describe('diarized_json and known speakers through the openai SDK', () => {
  let t: TestService;
  let client: OpenAI;
  let work: string;
  let reference: string;

  beforeAll(async () => {
    t = await startTestService('pglite');
    client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0 });
    work = await mkdtemp(join(tmpdir(), 'sdk-diarized-'));
    const talk = join(work, 'talk.wav');
    await writeReaderThenJfk(talk);
    reference = `data:audio/wav;base64,${(await readFile(join(AUDIO_DIR, `${LV}-0870.wav`))).toString('base64')}`;
  });

  afterAll(async () => {
    await t?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('should name the given speaker, letter the other, in OpenAI’s diarized shape', async () => {
    const answer = (await client.audio.transcriptions.create({
      file: createReadStream(join(work, 'talk.wav')),
      model: 'whisper-1',
      response_format: 'diarized_json',
      chunking_strategy: 'auto',
      known_speaker_names: ['Reader'],
      known_speaker_references: [reference],
      'service.speakers': 2, // the count given: this test is about naming, not about counting (docs/diarization.md)
    } as never)) as unknown as {
      task: string;
      duration: number;
      text: string;
      segments: DiarizedSegment[];
      usage: { type: string; seconds: number };
    };
    expect(answer.task).toBe('transcribe');
    expect(answer.duration).toBeCloseTo(16.3, 0);
    expect(answer.usage).toEqual({ type: 'duration', seconds: answer.duration });
    expect(answer.segments.length).toBeGreaterThan(1);
    for (const segment of answer.segments) {
      expect(segment).toEqual({
        type: 'transcript.text.segment',
        id: expect.stringMatching(/^seg_\d+$/),
        start: expect.any(Number),
        end: expect.any(Number),
        speaker: expect.any(String),
        text: expect.any(String),
      });
    }
    expect(answer.segments[0]!.speaker).toBe('Reader'); // she speaks first
    expect(new Set(answer.segments.map((s) => s.speaker))).toEqual(new Set(['Reader', 'A'])); // JFK: not given, a letter
    expect(answer.segments.filter((s) => s.speaker === 'A').every((s) => s.start >= 5)).toBe(true); // his part starts at 5.3 s
    expect(answer.text).toBe(answer.segments.map((s) => s.text).join(' '));
  });

  it('should refuse a prompt with diarized_json as OpenAI does (400 naming prompt), and a name without its reference', async () => {
    const withPrompt = await client.audio.transcriptions
      .create({
        file: createReadStream(join(work, 'talk.wav')),
        model: 'whisper-1',
        response_format: 'diarized_json',
        prompt: 'Names: Reader.',
      })
      .catch((error: unknown) => error);
    expect(withPrompt).toBeInstanceOf(BadRequestError);
    expect((withPrompt as BadRequestError).param).toBe('prompt');
    const unpaired = await client.audio.transcriptions
      .create({
        file: createReadStream(join(work, 'talk.wav')),
        model: 'whisper-1',
        response_format: 'diarized_json',
        known_speaker_names: ['Reader', 'Other'],
        known_speaker_references: [reference],
      })
      .catch((error: unknown) => error);
    expect(unpaired).toBeInstanceOf(BadRequestError);
    expect((unpaired as BadRequestError).message).toMatch(/known_speaker/);
  });

  it('should refuse a reference part over 8 MiB and more reference parts than known speakers, naming the part, before any run', async () => {
    const post = async (references: string[]) => {
      const form = new FormData();
      form.append('file', new Blob([await readFile(join(AUDIO_DIR, 'jfk.wav'))]), 'jfk.wav');
      form.append('model', 'whisper-1');
      form.append('response_format', 'diarized_json');
      references.forEach((reference, n) => {
        form.append('known_speaker_names[]', `Speaker ${n}`);
        form.append('known_speaker_references[]', reference);
      });
      const response = await fetch(`${t.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}` },
        body: form,
      });
      return { status: response.status, error: ((await response.json()) as { error: { message: string; param: string } }).error };
    };
    const huge = await post([`data:audio/wav;base64,${'A'.repeat(8 * 1024 * 1024 + 1)}`]);
    expect(huge.status).toBe(400);
    expect(huge.error.message).toBe('The form part known_speaker_references[] is longer than 8 MiB.');
    const many = await post(Array.from({ length: 5 }, () => reference));
    expect(many.status).toBe(400);
    expect(many.error.message).toMatch(/more than 4 parts named known_speaker_references\[\]/);
  });
});
