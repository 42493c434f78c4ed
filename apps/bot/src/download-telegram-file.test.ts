import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Api } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@transcribe/core';
import { CLOSING_FRAMINGS, startFramedServer } from '@transcribe/core/testing';
import type { FramedAnswer, FramedRequest, ResponseFraming } from '@transcribe/core/testing';
import type { BotSettings } from './bot-context.ts';
import { downloadTelegramFile } from './download-telegram-file.ts';

// A Bot API server (a local `telegram-bot-api --local`, or a proxy in front of api.telegram.org)
// that closes the connection right after each answer, speaks HTTP/1.0 or ends bodies with the
// connection. getFile goes through grammY's client; the bytes through the service's outbound client.

const TOKEN = '123456:test-token';
const FILE = Buffer.from(Array.from({ length: 20 * 1024 * 1024 }, (_, i) => (i * 13) % 256));
const SHA = createHash('sha256').update(FILE).digest('hex');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'telegram-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Answers getFile, then the file (or `fileAnswers` in turn, then the file). */
function botApi(fileAnswers: FramedAnswer[] = []): (request: FramedRequest) => FramedAnswer {
  return (request) => {
    if (request.url === `/bot${TOKEN}/getFile`) {
      const result = { file_id: 'f1', file_unique_id: 'u1', file_size: FILE.length, file_path: 'voice/file_1.oga' };
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ok: true, result }) };
    }
    if (request.url === `/file/bot${TOKEN}/voice/file_1.oga`) return fileAnswers.shift() ?? { body: FILE };
    return { status: 404, body: '{"ok":false,"error_code":404,"description":"Not Found"}' };
  };
}

function settingsFor(apiRoot: string): BotSettings {
  return {
    token: TOKEN,
    apiRoot,
    localApiServer: true,
    publicApiBaseUrl: 'http://localhost/v1/replicate',
    keyGraceSeconds: 0,
    maxFileBytes: 100 * 1024 * 1024,
    progressPollMs: 1000,
    transcriptionTimeoutMs: 60_000,
    downloadTimeoutMs: 60_000,
  };
}

async function download(framing: ResponseFraming, fileAnswers: FramedAnswer[] = [], name: string = framing) {
  const server = await startFramedServer(framing, botApi(fileAnswers));
  try {
    const api = new Api(TOKEN, { apiRoot: server.url });
    const destPath = join(dir, name);
    const run = downloadTelegramFile(api, settingsFor(server.url), { fileId: 'f1', declaredBytes: FILE.length, destPath });
    return { result: await run.catch((error: unknown) => error), destPath, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('downloadTelegramFile from a Bot API server that closes the connection right after each answer', () => {
  for (const framing of CLOSING_FRAMINGS) {
    it(`should download a 20 MiB file framed as ${framing} whole, three times in a row`, async () => {
      for (let round = 0; round < 3; round += 1) {
        const { result, destPath } = await download(framing, [], `${framing}-${round}`);
        expect(result).toBe(FILE.length);
        expect(
          createHash('sha256')
            .update(await readFile(destPath))
            .digest('hex'),
        ).toBe(SHA);
      }
    });
  }

  it('should retry a 503 and a body cut short, then deliver the file', async () => {
    const { result, requests } = await download(
      'close',
      [
        { status: 503, body: 'busy' },
        { framing: 'cut', body: FILE },
      ],
      'retried',
    );
    expect(result).toBe(FILE.length);
    expect(requests.filter((request) => request.url.startsWith('/file/')).length).toBe(3);
  });

  it('should refuse at once, without retries, when the file answers 404', async () => {
    const { result, requests } = await download('close', [{ status: 404, body: 'gone' }], 'missing');
    expect(isAppError(result, 'upstream_refused')).toBe(true);
    expect((result as Error).message).toBe('The Bot API server answered 404 to the file download.');
    expect(requests.filter((request) => request.url.startsWith('/file/')).length).toBe(1);
  });
});
