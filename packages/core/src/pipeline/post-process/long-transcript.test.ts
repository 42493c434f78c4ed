import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PostProcessType } from '../../contract/spec/post-process-types.ts';
import { countTokens } from './count-tokens.ts';
import { MESSAGE_OVERHEAD_TOKENS, TOKENIZER_MARGIN, shortAnswerReserve } from './plan-token-budget.ts';
import { SHARED_PROMPT } from './post-processing-prompts.ts';
import { runPostProcessing } from './run-post-processing.ts';
import { makeLongTranscript } from './test-support/make-long-transcript.ts';
import { identifyRequest, lineNumbersIn, replyLikeAModel } from './test-support/reply-like-a-model.ts';
import { startChatServer } from './test-support/start-chat-server.ts';
import type { ChatServer, RecordedChatRequest } from './test-support/start-chat-server.ts';
import { testLlmConfig } from './test-support/test-llm-config.ts';

const CONTEXT = 1_500;
const TRANSCRIPT = makeLongTranscript(200);
let server: ChatServer;

beforeAll(async () => {
  server = await startChatServer(replyLikeAModel);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.setScript(replyLikeAModel);
});

function run(type: PostProcessType, contextTokens = CONTEXT) {
  return runPostProcessing({
    transcript: TRANSCRIPT,
    types: [type],
    targetLanguage: 'de',
    customPrompt: null,
    llm: testLlmConfig(server.baseUrl, { contextTokens }),
  });
}

function promptTokens(request: RecordedChatRequest): number {
  return countTokens(request.system) + countTokens(request.user) + 2 * MESSAGE_OVERHEAD_TOKENS;
}

const steps = (step: string) => server.requests.filter((request) => identifyRequest(request).step === step);

/** The transcript lines a request carried, without the `Part k of n` heading. */
function linesOf(request: RecordedChatRequest): string[] {
  return request.user.split('\n').filter((line) => /^(#\d+ )?(\[\d\d:\d\d:\d\d\] )?SPEAKER_\d: /u.test(line));
}

describe('long transcripts', () => {
  it('should be longer than one request can carry (test premise)', () => {
    const all = TRANSCRIPT.segments.map((segment) => segment.text).join('\n');
    expect(countTokens(all)).toBeGreaterThan(3 * CONTEXT);
  });

  it('should map-reduce a condense type: parts in order within the context, then one reduce over all notes', async () => {
    const { summary } = await run('summary');
    const maps = steps('map');
    expect(maps.length).toBeGreaterThanOrEqual(5);
    for (const request of maps) {
      expect(promptTokens(request) + shortAnswerReserve(CONTEXT)).toBeLessThanOrEqual(CONTEXT * (1 - TOKENIZER_MARGIN));
    }
    const carried = maps
      .sort((a, b) => Number(/Part (\d+) of/u.exec(a.user)![1]) - Number(/Part (\d+) of/u.exec(b.user)![1]))
      .flatMap(linesOf);
    expect(carried).toHaveLength(200);
    expect(carried.map((line) => /Point (\d+):/u.exec(line)![1])).toEqual(TRANSCRIPT.segments.map((_, i) => String(i + 1)));
    const [reduce] = steps('reduce');
    expect(reduce!.user).toContain(SHARED_PROMPT.reduceIntro);
    for (let k = 1; k <= maps.length; k += 1) expect(reduce!.user).toContain(`Part ${k} of ${maps.length}:\nRESULT summary (map)`);
    expect(reduce!.receivedAtMs).toBeGreaterThanOrEqual(Math.max(...maps.map((request) => request.answeredAtMs!)));
    expect(summary).toBe('RESULT summary (reduce)');
    expect(server.requests).toHaveLength(maps.length + 1);
  });

  it('should condense notes that are still too long before the reduce', async () => {
    const longNotes = Array.from({ length: 60 }, (_, i) => `- note ${i}: the committee agreed on a detail of the budget.`).join('\n');
    server.setScript((request) => (identifyRequest(request).step === 'map' ? { content: longNotes } : replyLikeAModel(request)));
    const { key_facts: facts } = await run('key_facts');
    expect(steps('condense').length).toBeGreaterThanOrEqual(2);
    const [reduce] = steps('reduce');
    expect(reduce!.user).toContain('RESULT key_facts (condense)');
    expect(promptTokens(reduce!) + shortAnswerReserve(CONTEXT)).toBeLessThanOrEqual(CONTEXT * (1 - TOKENIZER_MARGIN));
    expect(facts).toBe('RESULT key_facts (reduce)');
  });

  it('should fail clearly when condensing does not shorten the notes', async () => {
    const longNotes = Array.from({ length: 60 }, (_, i) => `- note ${i}: the committee agreed on a detail of the budget.`).join('\n');
    server.setScript(() => ({ content: longNotes }));
    await expect(run('gist')).rejects.toThrow(
      'Post-processing "gist" failed: the notes of the long transcript did not get shorter when condensed.',
    );
  });

  it('should send a transform type in parts and join the answers in order', async () => {
    server.setScript((request) => ({
      content: linesOf(request)
        .map((line) => line.replace('Point', 'Punkt'))
        .join('\n'),
    }));
    const { translation } = await run('translation');
    expect(server.requests.length).toBeGreaterThanOrEqual(5);
    for (const request of server.requests) expect(request.user).toMatch(/^Transcript, part \d+ of \d+:\n/u);
    const lines = (translation as string).split('\n');
    expect(lines).toHaveLength(200);
    expect(lines[0]).toBe(
      'SPEAKER_1: Punkt 1: the committee discussed agenda item 1, the budget of 100 euros and the schedule for week 1.',
    );
    expect(lines.map((line) => /Punkt (\d+):/u.exec(line)![1])).toEqual(TRANSCRIPT.segments.map((_, i) => String(i + 1)));
  });

  it("should give chapters from every part with the segments' real start times", async () => {
    const { chapters } = await run('chapters');
    const firsts = server.requests.map((request) => lineNumbersIn(request.user)[0]!).sort((a, b) => a - b);
    expect(firsts.length).toBeGreaterThanOrEqual(2);
    const expected = firsts.map((n) => {
      const seconds = Math.floor(TRANSCRIPT.segments[n - 1]!.start);
      const hms = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
        .map((v) => String(v).padStart(2, '0'))
        .join(':');
      return `${hms} Opening`;
    });
    expect((chapters as string).split('\n')).toEqual(expected.slice(0, 1)); // same title in a row is one chapter
    server.setScript((request) => ({
      content: JSON.stringify({ chapters: [{ segment: lineNumbersIn(request.user)[0], title: `From ${lineNumbersIn(request.user)[0]}` }] }),
    }));
    const { chapters: distinct } = await run('chapters');
    expect((distinct as string).split('\n')).toEqual(expected.map((line, i) => line.replace('Opening', `From ${firsts[i]}`)));
  });

  it('should fail clearly when the context is too small for the prompt', async () => {
    await expect(run('summary', 500)).rejects.toThrow(
      'Post-processing "summary" failed: the configured model context of 500 tokens is too small for this task\'s prompt.',
    );
    expect(server.requests).toHaveLength(0);
  });
});
