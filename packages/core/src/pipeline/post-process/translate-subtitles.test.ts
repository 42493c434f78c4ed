import Parser from 'srt-parser-2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MULTI_SPEAKER_TRANSCRIPT } from '../render/__fixtures__/transcripts.ts';
import { listSrtCues, renderSrt } from '../render/render-srt.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import { runPostProcessing } from './run-post-processing.ts';
import { makeLongTranscript } from './test-support/make-long-transcript.ts';
import { cuesIn } from './test-support/reply-like-a-model.ts';
import { startChatServer } from './test-support/start-chat-server.ts';
import type { ChatReply, ChatServer, RecordedChatRequest } from './test-support/start-chat-server.ts';
import { testLlmConfig } from './test-support/test-llm-config.ts';

const TRANSCRIPT = makeLongTranscript(30);
let server: ChatServer;

/** A faithful "translation": the cue's text upper-cased, as the model would return it. */
function translateAll(request: RecordedChatRequest): ChatReply {
  return { content: JSON.stringify({ cues: cuesIn(request.user).map((cue) => ({ id: cue.id, text: cue.text.toUpperCase() })) }) };
}

/** Batches go wrong with `damage`; cues asked for alone come back right. */
function damagedBatches(damage: (cues: { id: number; text: string }[]) => { id: number; text: string }[]) {
  return (request: RecordedChatRequest): ChatReply => {
    const cues = cuesIn(request.user);
    if (cues.length === 1) return translateAll(request);
    return { content: JSON.stringify({ cues: damage(cues.map((cue) => ({ id: cue.id, text: cue.text.toUpperCase() }))) }) };
  };
}

beforeAll(async () => {
  server = await startChatServer(translateAll);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function run(transcript: Transcript = TRANSCRIPT, contextTokens = 8_192): Promise<string> {
  return runPostProcessing({
    transcript,
    types: ['translated_subtitles'],
    targetLanguage: 'de',
    customPrompt: null,
    llm: testLlmConfig(server.baseUrl, { contextTokens }),
  }).then((results) => results.translated_subtitles as string);
}

/** Cue numbers and time lines of an SRT text, exactly as written. */
function headers(srt: string): string[] {
  return srt.split('\n\n').map((block) => block.split('\n').slice(0, 2).join('\n'));
}

function expectSameCues(srt: string, transcript: Transcript = TRANSCRIPT): void {
  const original = renderSrt(transcript);
  expect(headers(srt)).toEqual(headers(original));
  const parsed = new Parser().fromSrt(srt);
  expect(parsed).toHaveLength(listSrtCues(transcript).length);
  expect(srt.endsWith('\n')).toBe(true);
  expect(srt).not.toContain('\n\n\n');
}

/** The translated text of each cue, lines joined with a space. */
function texts(srt: string): string[] {
  return new Parser().fromSrt(srt).map((cue) => cue.text.replace(/\n/gu, ' '));
}

describe('translated_subtitles', () => {
  it("should keep every cue number and time of the transcript's SRT and translate every text", async () => {
    server.setScript(translateAll);
    const srt = await run();
    expectSameCues(srt);
    expect(texts(srt)).toEqual(listSrtCues(TRANSCRIPT).map((cue) => cue.lines.join(' ').toUpperCase()));
  });

  it('should send at most 40 cues per request, in batches that follow the token budget', async () => {
    server.setScript(translateAll);
    const cueCount = listSrtCues(TRANSCRIPT).length;
    expect(cueCount).toBeGreaterThan(40);
    await run();
    expect(server.requests.length).toBe(Math.ceil(cueCount / 40));
    expect(server.requests.flatMap((request) => cuesIn(request.user).map((cue) => cue.id))).toEqual(
      Array.from({ length: cueCount }, (_, i) => i + 1),
    );
    server.requests.length = 0;
    await run(TRANSCRIPT, 2_000);
    expect(server.requests.length).toBeGreaterThan(Math.ceil(cueCount / 40));
  });

  it('should ask for structured output and keep speaker labels out of the text to translate', async () => {
    server.setScript(translateAll);
    const srt = await run(MULTI_SPEAKER_TRANSCRIPT);
    const [request] = server.requests;
    expect(request!.body.response_format?.json_schema?.name).toBe('subtitle_cues');
    expect(cuesIn(request!.user)[0]).toEqual({ id: 1, text: 'Hi everyone, thanks for joining.' });
    expect(texts(srt)[0]).toBe('SPEAKER_1: HI EVERYONE, THANKS FOR JOINING.');
    expectSameCues(srt, MULTI_SPEAKER_TRANSCRIPT);
  });

  it('should repair a line the model merged into its neighbour', async () => {
    server.setScript(
      damagedBatches((cues) =>
        cues
          .map((cue) => (cue.id === 4 ? { id: 4, text: `${cue.text} ${cues.find((c) => c.id === 5)!.text}` } : cue))
          .filter((cue) => cue.id !== 5),
      ),
    );
    const srt = await run();
    expectSameCues(srt);
    expect(texts(srt)).toEqual(listSrtCues(TRANSCRIPT).map((cue) => cue.lines.join(' ').toUpperCase()));
    const alone = server.requests.filter((request) => cuesIn(request.user).length === 1).map((request) => cuesIn(request.user)[0]!.id);
    expect(alone.sort()).toEqual([4, 5]);
  });

  it('should repair dropped, duplicated and empty cues', async () => {
    server.setScript(
      damagedBatches((cues) => [
        ...cues.filter((cue) => cue.id !== 2 && cue.id !== 10).map((cue) => (cue.id === 20 ? { ...cue, text: ' ' } : cue)),
        { id: 7, text: 'AGAIN' },
      ]),
    );
    const srt = await run();
    expectSameCues(srt);
    expect(texts(srt)).toEqual(listSrtCues(TRANSCRIPT).map((cue) => cue.lines.join(' ').toUpperCase()));
  });

  it('should fail clearly when a cue does not come back even alone', async () => {
    server.setScript((request) => ({
      content: JSON.stringify({
        cues: cuesIn(request.user)
          .filter((cue) => cue.id !== 3)
          .map((cue) => ({ ...cue, text: 'X' })),
      }),
    }));
    const total = listSrtCues(TRANSCRIPT).length;
    await expect(run()).rejects.toThrow(
      `Post-processing "translated_subtitles" failed: the model did not return cue 3 of ${total} even when asked for it alone (2 answers).`,
    );
  });

  it('should ask again once when the answer is not JSON, then fail', async () => {
    server.setScript(() => ({ content: '1\n00:00:00,250 --> 00:00:03,000\nPUNKT 1' }));
    await expect(run(MULTI_SPEAKER_TRANSCRIPT)).rejects.toThrow(
      'Post-processing "translated_subtitles" failed: the model\'s answer is not valid JSON (2 answers).',
    );
    expect(server.requests).toHaveLength(2);
  });
});
