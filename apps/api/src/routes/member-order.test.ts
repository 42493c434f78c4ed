import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, replyLikeAModel, startChatServer } from '@transcribe/core/testing';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/start-webhook-receiver.ts';

type Body = Record<string, unknown>;

const JSON_MEMBERS = ['source', 'segments', 'vad', 'language'];
const JSON2_MEMBERS = ['source', 'segments', 'vad', 'languages', 'speakers'];
// The measured confidence members follow the words (docs/formats.md, "Confidence").
const SEGMENT_MEMBERS = [
  'start',
  'end',
  'text',
  'speaker',
  'language',
  'words',
  'avg_logprob',
  'compression_ratio',
  'no_speech_prob',
  'flags',
];
// Neither alphabetical nor the order jsonb keeps (shorter keys first): only the request's order passes.
const POST_PROCESS = ['translation', 'summary', 'speaker_names'];

/** Member names of an object as they appear in the bytes (JSON.parse keeps text order for non-index keys). */
const membersOf = (value: unknown) => Object.keys(value as Body);

/**
 * The documented member order (spec 2.3.3, docs/formats.md) reaches the client byte for byte: the
 * json transcript as `source, segments, vad, language`, `{transcript, results}` with results in the
 * order of `post_process`, whatever the database does to stored JSON (jsonb reorders members).
 */
describe.each(['pglite', 'postgres'] as const)('member order of the output on %s', (kind) => {
  let t: TestService;
  let files: FileServer;
  let chat: ChatServer;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    chat = await startChatServer(replyLikeAModel);
    hooks = await startWebhookReceiver();
    t = await startTestService(kind, { LLM_BASE_URL: chat.baseUrl, LLM_MAX_RETRIES: '1' });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
    await hooks?.close();
    await chat?.close();
  });

  const createAndWait = async (input: Body, hookPath: string) => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', prefer: 'wait=60' },
      body: JSON.stringify({
        input: { audio: `${files.url}/jfk.wav`, ...input },
        webhook: `${hooks.url}${hookPath}`,
        webhook_events_filter: ['completed'],
      }),
    });
    const created = JSON.parse(await response.text()) as Body;
    expect(created.status).toBe('succeeded');
    const got = JSON.parse(
      await (
        await fetch(`${t.replicateBase}/v1/predictions/${String(created.id)}`, { headers: { authorization: `Bearer ${t.key}` } })
      ).text(),
    ) as Body;
    const [hook] = await hooks.waitFor(hookPath, (entries) => entries.length >= 1, 60_000);
    return { created, got, hook: JSON.parse(hook!.body) as Body };
  };

  it('should give {transcript, results} with results in the order of post_process, in create, GET and webhook bodies', async () => {
    const bodies = await createAndWait({ post_process: POST_PROCESS, target_language: 'German' }, '/with-results');
    for (const [where, body] of Object.entries(bodies)) {
      const output = body.output as { transcript: Body; results: Body };
      expect(membersOf(output), where).toEqual(['transcript', 'results']);
      expect(membersOf(output.results), where).toEqual(POST_PROCESS);
      expect(membersOf(output.transcript), where).toEqual(JSON_MEMBERS);
      expect(membersOf((output.transcript.segments as Body[])[0]), where).toEqual(SEGMENT_MEMBERS);
    }
  });

  it('should give the json and json2 transcripts in their documented order', async () => {
    for (const [format, members] of [
      ['json', JSON_MEMBERS],
      ['json2', JSON2_MEMBERS],
    ] as const) {
      const bodies = await createAndWait({ output_format: format }, `/${format}`);
      for (const [where, body] of Object.entries(bodies)) expect(membersOf(body.output), `${format} ${where}`).toEqual(members);
    }
  });
});
