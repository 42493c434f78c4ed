import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PostProcessType } from '../../contract/spec/post-process-types.ts';
import { MULTI_SPEAKER_TRANSCRIPT } from '../render/__fixtures__/transcripts.ts';
import { runPostProcessing } from './run-post-processing.ts';
import { startChatServer } from './test-support/start-chat-server.ts';
import type { ChatReply, ChatServer } from './test-support/start-chat-server.ts';
import { testLlmConfig } from './test-support/test-llm-config.ts';

let server: ChatServer;

beforeAll(async () => {
  server = await startChatServer(() => ({ content: '{}' }));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

async function run(type: PostProcessType, ...replies: ChatReply[]): Promise<unknown> {
  server.setScript((request) => replies[Math.min(request.index, replies.length - 1)]!);
  const results = await runPostProcessing({
    transcript: MULTI_SPEAKER_TRANSCRIPT,
    types: [type],
    targetLanguage: null,
    customPrompt: null,
    llm: testLlmConfig(server.baseUrl),
  });
  return results[type];
}

const json = (value: unknown): ChatReply => ({ content: JSON.stringify(value) });

describe('chapters', () => {
  it("should ask for the chapters JSON Schema and turn line numbers into the segments' real start times", async () => {
    const chapters = await run(
      'chapters',
      json({
        chapters: [
          { segment: 1, title: 'Welcome' },
          { segment: 4, title: ' Logistics\nand venue ' },
        ],
      }),
    );
    expect(chapters).toBe('00:00:00 Welcome\n00:00:15 Logistics and venue');
    const format = server.requests[0]!.body.response_format!;
    expect(format.json_schema!.name).toBe('chapters');
    expect(format.json_schema!.strict).toBe(true);
    expect(format.json_schema!.schema).toMatchObject({ type: 'object', required: ['chapters'], additionalProperties: false });
  });

  it('should sort chapters and drop repeated lines and repeated titles', async () => {
    const chapters = await run(
      'chapters',
      json({
        chapters: [
          { segment: 4, title: 'Logistics' },
          { segment: 1, title: 'Welcome' },
          { segment: 2, title: 'Welcome' },
          { segment: 4, title: 'Venue' },
        ],
      }),
    );
    expect(chapters).toBe('00:00:00 Welcome\n00:00:15 Logistics');
  });

  it('should ask again when a chapter names a line that does not exist, then fail clearly', async () => {
    await expect(run('chapters', json({ chapters: [{ segment: 99, title: 'Made up' }] }))).rejects.toThrow(
      'Post-processing "chapters" failed: the model referred to line #99, which is not in the transcript part it was given (2 answers).',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('should accept a corrected second answer', async () => {
    const chapters = await run('chapters', json({ chapters: [] }), json({ chapters: [{ segment: 3, title: 'Go ahead' }] }));
    expect(chapters).toBe('00:00:09 Go ahead');
  });
});

describe('speaker_names', () => {
  it("should send a JSON Schema requiring exactly the transcript's labels", async () => {
    await run('speaker_names', json({ names: { SPEAKER_1: 'Anna', SPEAKER_2: null, SPEAKER_3: null } }));
    const schema = server.requests[0]!.body.response_format!.json_schema!.schema as { properties: { names: Record<string, unknown> } };
    expect(schema.properties.names).toEqual({
      type: 'object',
      properties: {
        SPEAKER_1: { type: ['string', 'null'] },
        SPEAKER_2: { type: ['string', 'null'] },
        SPEAKER_3: { type: ['string', 'null'] },
      },
      required: ['SPEAKER_1', 'SPEAKER_2', 'SPEAKER_3'],
      additionalProperties: false,
    });
  });

  it('should map labels to the inferred names only, trimmed', async () => {
    expect(await run('speaker_names', json({ names: { SPEAKER_1: ' Anna  Berg ', SPEAKER_2: null, SPEAKER_3: 'Chris' } }))).toEqual({
      SPEAKER_1: 'Anna Berg',
      SPEAKER_3: 'Chris',
    });
  });

  it('should give null when no name can be inferred', async () => {
    expect(await run('speaker_names', json({ names: { SPEAKER_1: null, SPEAKER_2: '', SPEAKER_3: null } }))).toBeNull();
  });

  it('should tolerate a Markdown code fence around the JSON', async () => {
    const fenced = { content: '```json\n{"names": {"SPEAKER_1": null, "SPEAKER_2": "Ben", "SPEAKER_3": null}}\n```' };
    expect(await run('speaker_names', fenced)).toEqual({ SPEAKER_2: 'Ben' });
  });

  it('should ask again when the answer breaks the schema (unknown label, missing label), then fail clearly', async () => {
    await expect(run('speaker_names', json({ names: { SPEAKER_1: 'Anna', SPEAKER_9: 'Zed' } }))).rejects.toThrow(
      'Post-processing "speaker_names" failed: the model\'s answer does not follow the requested JSON schema (2 answers).',
    );
    expect(server.requests).toHaveLength(2);
  });
});
