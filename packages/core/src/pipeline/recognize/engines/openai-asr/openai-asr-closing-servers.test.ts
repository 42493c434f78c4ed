import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSING_FRAMINGS } from '../../../../platform/http/test-support/start-framed-server.ts';
import type { ResponseFraming } from '../../../../platform/http/test-support/start-framed-server.ts';
import { audioPath } from '../../shared-audio.test-helper.ts';
import { fingerprintTranscription, startTranscriptionServer } from '../../test-support/start-transcription-server.ts';
import type { TranscriptionServer } from '../../test-support/start-transcription-server.ts';
import { createOpenAiAsrEngine } from './openai-asr-engine.ts';

// Transcription servers that close the connection after each answer (HTTP/1.0 front ends,
// `Connection: close`, bodies delimited by the end of the connection) with long verbose_json
// answers. The openai client reads them through the outbound fetch.

let framing: ResponseFraming = 'close';
let server: TranscriptionServer;

beforeAll(async () => {
  server = await startTranscriptionServer({
    // The fingerprint answer, padded with 2 MiB of prompt echo: as long as a verbose_json of hours.
    script: (request) => ({
      body: { ...(fingerprintTranscription(request) as object), padding: 'p'.repeat(2 * 1024 * 1024) },
      framing,
      stallMs: 100,
    }),
  });
});
afterAll(() => server.close());

describe('the remote ASR engine against servers that close the connection right after the answer', () => {
  for (const each of CLOSING_FRAMINGS) {
    it(`should read long answers framed as ${each}, four requests at a time`, async () => {
      framing = each;
      server.reset();
      const engine = createOpenAiAsrEngine({
        baseUrl: server.baseUrl,
        apiKey: 'test-key',
        model: 'whisper-test',
        timeoutMs: 30_000,
        maxRetries: 0,
        concurrency: 4,
        retryBaseDelayMs: 10,
      });
      // jfk.wav in ten pieces of speech, four requests at a time, each answer arriving whole with
      // its FIN while the process is busy for 100 ms.
      const speech = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((start) => ({ start: start + 0.1, end: start + 0.9 }));
      const segments = await engine.recognize({
        wavPath: audioPath('jfk.wav'),
        durationSeconds: 11,
        speech,
        language: null,
        prompt: null,
        hotwords: [],
      });
      expect(server.requests.length).toBeGreaterThanOrEqual(1);
      expect(server.requests.every((request) => !request.aborted)).toBe(true);
      expect(segments.length).toBeGreaterThan(0);
    });
  }
});
