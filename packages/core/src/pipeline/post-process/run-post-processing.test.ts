import Parser from 'srt-parser-2';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../platform/errors/app-error.ts';
import { POST_PROCESS_TYPE_NAMES } from '../../contract/spec/post-process-types.ts';
import type { PostProcessType } from '../../contract/spec/post-process-types.ts';
import { EMPTY_TRANSCRIPT, LONG_TRANSCRIPT, MULTI_SPEAKER_TRANSCRIPT, ONE_SPEAKER_TRANSCRIPT } from '../render/__fixtures__/transcripts.ts';
import { renderSrt } from '../render/render-srt.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { LlmClientConfig } from './llm-client-config.ts';
import { POST_PROCESSING_PROMPTS, SHARED_PROMPT } from './post-processing-prompts.ts';
import { runPostProcessing } from './run-post-processing.ts';
import type { PostProcessingRequest } from './run-post-processing.ts';
import { identifyRequest, replyLikeAModel } from './test-support/reply-like-a-model.ts';
import { startChatServer } from './test-support/start-chat-server.ts';
import type { ChatServer, RecordedChatRequest } from './test-support/start-chat-server.ts';
import { testLlmConfig } from './test-support/test-llm-config.ts';

let server: ChatServer;

beforeAll(async () => {
  server = await startChatServer(replyLikeAModel);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.setScript(replyLikeAModel);
});

type RunOptions = Partial<Omit<PostProcessingRequest, 'llm'>> & { llm?: Partial<LlmClientConfig> };

function run(types: PostProcessType[], { llm, ...options }: RunOptions = {}) {
  return runPostProcessing({
    transcript: MULTI_SPEAKER_TRANSCRIPT,
    targetLanguage: 'fr',
    customPrompt: 'List every place mentioned.',
    ...options,
    types,
    llm: testLlmConfig(server.baseUrl, llm),
  });
}

/** What each type's single request must carry besides the shared rules. */
function expectRequestShape(type: PostProcessType, request: RecordedChatRequest): void {
  const prompt = POST_PROCESSING_PROMPTS[type];
  expect(request.body.model).toBe('test-model');
  expect(request.body.messages.map((message) => message.role)).toEqual(['system', 'user']);
  expect(request.system.startsWith(SHARED_PROMPT.rules)).toBe(true);
  expect(request.system).toContain(`Task: ${prompt.task}`);
  const language = {
    transcript: 'Write the result in English, the language of the transcript.',
    russian: 'Write the result in Russian.',
    target: 'Write the result in French.',
    'transcript-unless-asked': 'unless the instructions ask for another language',
  }[prompt.language];
  expect(request.system).toContain(language);
  const structured = ['chapters', 'translated_subtitles', 'speaker_names'].includes(type);
  expect(request.body.response_format?.type).toBe(structured ? 'json_schema' : undefined);
  if (type === 'translated_subtitles') expect(request.user).toContain('"text":"Hi everyone, thanks for joining."');
  else if (type === 'chapters') expect(request.user).toContain('#1 [00:00:00] SPEAKER_1: Hi everyone, thanks for joining.');
  else if (prompt.method === 'transform') expect(request.user).toContain('\nSPEAKER_1: Hi everyone, thanks for joining.\n');
  else expect(request.user).toContain('\n[00:00:00] SPEAKER_1: Hi everyone, thanks for joining.\n');
  if (type === 'custom')
    expect(request.user.startsWith('Instructions from the user:\nList every place mentioned.\n\nTranscript:\n')).toBe(true);
  if (type === 'speaker_names') expect(request.user.startsWith('Speaker labels: SPEAKER_1, SPEAKER_2, SPEAKER_3\n')).toBe(true);
}

describe('runPostProcessing', () => {
  describe.each(POST_PROCESS_TYPE_NAMES.map((type) => [type]))('type %s', (type) => {
    it("should send one request of the right shape and return the model's result", async () => {
      const results = await run([type]);
      expect(server.requests).toHaveLength(1);
      expectRequestShape(type, server.requests[0]!);
      expect(Object.keys(results)).toEqual([type]);
      const result = results[type];
      if (type === 'speaker_names') expect(result).toEqual({ SPEAKER_1: 'Anna' });
      else if (type === 'chapters') expect(result).toBe('00:00:00 Opening');
      else if (type === 'translated_subtitles')
        expect((result as string).split('\n\n')).toHaveLength(renderSrt(MULTI_SPEAKER_TRANSCRIPT).split('\n\n').length);
      else expect(result).toBe(`RESULT ${type} (whole)`);
    });
  });

  it('should keep the request order of types in the results', async () => {
    const types: PostProcessType[] = ['speaker_names', 'summary', 'clean_up', 'chapters'];
    expect(Object.keys(await run(types))).toEqual(types);
  });

  it("should return valid SRT with the transcript's cue times for translated_subtitles", async () => {
    const { translated_subtitles: srt } = await run(['translated_subtitles']);
    const original = new Parser().fromSrt(renderSrt(MULTI_SPEAKER_TRANSCRIPT));
    const translated = new Parser().fromSrt(srt as string);
    expect(translated.map((cue) => [cue.id, cue.startTime, cue.endTime])).toEqual(
      original.map((cue) => [cue.id, cue.startTime, cue.endTime]),
    );
    expect(translated[0]!.text.replace('\n', ' ')).toBe('SPEAKER_1: [fr] Hi everyone, thanks for joining.');
  });

  it('should give speaker_names null without a request when the transcript has no speaker labels', async () => {
    expect(await run(['speaker_names'], { transcript: LONG_TRANSCRIPT })).toEqual({ speaker_names: null });
    expect(server.requests).toHaveLength(0);
  });

  it('should give speaker_names null when the model can name nobody', async () => {
    server.setScript(() => ({ content: '{"names": {"SPEAKER_1": null}}' }));
    expect(await run(['speaker_names'], { transcript: ONE_SPEAKER_TRANSCRIPT })).toEqual({ speaker_names: null });
  });

  it("should write lecture notes in Russian and other types in the transcript's language", async () => {
    const german: Transcript = { ...ONE_SPEAKER_TRANSCRIPT, language: 'de' };
    await run(['lecture_notes', 'summary'], { transcript: german });
    const system = (type: PostProcessType) => server.requests.find((request) => identifyRequest(request).type === type)!.system;
    expect(system('lecture_notes')).toContain('Write the result in Russian.');
    expect(system('summary')).toContain('Write the result in German, the language of the transcript.');
  });

  it('should translate into target_language given by name or code', async () => {
    await run(['translation'], { targetLanguage: 'Haitian creole' });
    expect(server.requests[0]!.system).toContain('Write the result in Haitian creole.');
  });

  describe('without speech (spec 2.3.6)', () => {
    it('should give empty strings and {} for speaker_names without any request', async () => {
      const types: PostProcessType[] = ['summary', 'speaker_names', 'translated_subtitles', 'chapters', 'custom', 'translation'];
      const results = await run(types, { transcript: EMPTY_TRANSCRIPT, llm: { baseUrl: 'http://127.0.0.1:9/v1' } });
      expect(results).toEqual({ summary: '', speaker_names: {}, translated_subtitles: '', chapters: '', custom: '', translation: '' });
      expect(server.requests).toHaveLength(0);
    });

    it('should treat segments of whitespace only as no speech', async () => {
      const blank: Transcript = {
        ...ONE_SPEAKER_TRANSCRIPT,
        segments: ONE_SPEAKER_TRANSCRIPT.segments.map((s) => ({ ...s, text: ' \n ' })),
      };
      expect(await run(['gist'], { transcript: blank })).toEqual({ gist: '' });
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('all or nothing (spec 3)', () => {
    it('should fail naming the type and the cause, with no partial result, when one type fails', async () => {
      server.setScript((request) =>
        identifyRequest(request).type === 'quiz' ? { status: 500 } : { ...replyLikeAModel(request), delayMs: 50 },
      );
      const error = await run(['summary', 'quiz', 'gist']).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('post_processing_failed');
      expect((error as AppError).message).toBe(
        'Post-processing "quiz" failed: the language model endpoint failed with HTTP 500 (3 attempts).',
      );
    });

    it("should stop the other types' requests once one type has failed", async () => {
      server.setScript((request) => (identifyRequest(request).type === 'summary' ? { status: 401 } : { hang: true }));
      const started = performance.now();
      await expect(run(['summary', 'article', 'blog_post'], { llm: { timeoutMs: 60_000 } })).rejects.toThrow(
        'Post-processing "summary" failed: the language model endpoint refused the configured API key (HTTP 401).',
      );
      expect(performance.now() - started).toBeLessThan(20_000); // far below the 60 s timeout of the hanging ones, whatever the load
      await vi.waitFor(() => expect(server.requests).toHaveLength(3)); // no stray request reaches the next test
    });

    it('should report the first failure when several types fail', async () => {
      server.setScript((request) => (identifyRequest(request).type === 'gist' ? { status: 400 } : { status: 500, delayMs: 300 }));
      await expect(run(['summary', 'gist'], { llm: { maxRetries: 0 } })).rejects.toThrow('Post-processing "gist" failed');
      await vi.waitFor(() => expect(server.requests).toHaveLength(2));
    });

    it('should fail when a structured answer stays unusable', async () => {
      server.setScript(() => ({ content: 'The speakers are Anna and Ben.' }));
      await expect(run(['speaker_names'])).rejects.toThrow(
        'Post-processing "speaker_names" failed: the model\'s answer is not valid JSON (2 answers).',
      );
      expect(server.requests.filter((request) => identifyRequest(request).type === 'speaker_names')).toHaveLength(2);
    });
  });

  describe('parallelism', () => {
    it('should run up to 8 types at once', async () => {
      // A barrier, not a stopwatch: no request is answered before all 8 have arrived, so run()
      // finishes only if it sends them together (one at a time, the first would wait forever).
      const types = POST_PROCESS_TYPE_NAMES.slice(0, 8);
      let arrived = 0;
      let openBarrier!: () => void;
      const allArrived = new Promise<void>((resolve) => (openBarrier = resolve));
      server.setScript(async (request) => {
        arrived += 1;
        if (arrived === types.length) openBarrier();
        await allArrived;
        return replyLikeAModel(request);
      });
      const finished = run([...types]);
      await vi.waitFor(() => expect(arrived).toBe(8), { timeout: 20_000 });
      await finished;
      expect(server.requests).toHaveLength(8);
    });

    it('should keep no more than `concurrency` requests in flight', async () => {
      let inFlight = 0;
      let most = 0;
      server.setScript(async (request) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 60));
        inFlight -= 1;
        return replyLikeAModel(request);
      });
      await run(['summary', 'gist', 'detailed', 'simple', 'quiz', 'article'], { llm: { concurrency: 2 } });
      expect(most).toBe(2);
    });
  });

  it("should reject with the caller's reason when the caller cancels", async () => {
    server.setScript(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = run(['summary', 'gist'], { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(2));
    controller.abort(new Error('prediction cancelled'));
    await expect(pending).rejects.toThrow('prediction cancelled');
  });

  it('should refuse a translation without a known target_language before any request', async () => {
    const error = await run(['translation'], { targetLanguage: 'Klingon' }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect((error as AppError).code).toBe('invalid_input');
    expect((error as AppError).param).toBe('target_language');
    expect(server.requests).toHaveLength(0);
  });

  it('should report progress lines', async () => {
    const lines: string[] = [];
    await run(['summary'], { onProgress: (line) => lines.push(line) });
    expect(lines[0]).toBe('post-processing summary with model test-model');
    expect(lines.at(-1)).toMatch(/^post-processing finished: 1 requests in \d+\.\d s$/u);
  });
});
