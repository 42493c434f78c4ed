import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTranscriptionServer,
  type TranscriptionServer,
} from '../../../../packages/core/src/recognition/test-support/start-transcription-server.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** The service configured with RECOGNITION_ENGINE=openai-compatible, against a local server speaking that protocol. */
describe('the remote engine through the API', () => {
  let asr: TranscriptionServer;
  let t: TestService;
  let files: FileServer;

  beforeAll(async () => {
    asr = await startTranscriptionServer({
      script: (request) => ({
        body: {
          task: 'transcribe',
          language: 'english',
          duration: request.durationSeconds,
          text: 'ask not what your country can do for you',
          segments: [{ id: 0, start: 0.1, end: request.durationSeconds - 0.1, text: ' ask not what your country can do for you', avg_logprob: -0.2 }],
        },
      }),
    });
    t = await startTestService('pglite', { RECOGNITION_ENGINE: 'openai-compatible', ASR_BASE_URL: asr.baseUrl, ASR_MODEL: 'whisper-1', ASR_API_KEY: 'sk-test' });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
    await asr?.close();
  });

  it('should send the speech to the server with the prompt and hotwords and stitch its answer into the transcript', async () => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `${files.url}/jfk.wav`, prompt: 'Inaugural address.', hotwords: 'Kennedy, citizens', language: 'German' } }),
    });
    expect(response.status).toBe(201);
    const done = await pollPrediction(t.replicateBase, t.key, ((await response.json()) as { id: string }).id);
    expect(done.status).toBe('succeeded');
    const output = done.output as { segments: { text: string; start: number }[]; language: string };
    expect(output.segments.map((s) => s.text).join(' ')).toContain('what your country can do');
    expect(asr.requests.length).toBeGreaterThan(0);
    const fields = asr.requests[0]!.fields;
    expect(fields.model).toEqual(['whisper-1']);
    expect(fields.response_format).toEqual(['verbose_json']);
    expect(fields.language).toEqual(['de']);
    expect(fields.prompt?.[0]).toMatch(/Inaugural address\.[\s\S]*Kennedy, citizens/);
    expect(asr.requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });
});
