import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../platform/errors/app-error.ts';
import { CLOSING_FRAMINGS, startFramedServer } from '../../../platform/http/test-support/start-framed-server.ts';
import type { FramedAnswer } from '../../../platform/http/test-support/start-framed-server.ts';
import { downloadModelArchive } from './download-model-archive.ts';

// Release mirrors as they are: python's http.server (HTTP/1.0) serving a folder of archives, hosts
// that close right after the body, bodies delimited by the end of the connection. The archive is
// written chunk by chunk, so the download reads slower than loopback delivers.

const ARCHIVE = Buffer.from(Array.from({ length: 20 * 1024 * 1024 }, (_, i) => (i * 31) % 256));
const SHA = createHash('sha256').update(ARCHIVE).digest('hex');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'closing-release-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = { timeoutMs: 60_000, maxRetries: 0, retryBaseDelayMs: 10, maxBytes: 100 * 1024 * 1024 };

describe('downloadModelArchive from hosts that close the connection right after the body', () => {
  for (const framing of CLOSING_FRAMINGS) {
    it(`should download a 20 MiB archive framed as ${framing} whole, three times in a row`, async () => {
      const host = await startFramedServer(framing, () => ({ headers: { 'content-type': 'application/x-bzip2' }, body: ARCHIVE }));
      try {
        for (let round = 0; round < 3; round += 1) {
          const destination = join(dir, `${framing}-${round}.tar.bz2`);
          const result = await downloadModelArchive({ ...options, url: `${host.url}/model.tar.bz2`, destination });
          expect(result).toEqual({ sha256: SHA, bytes: ARCHIVE.length, resumedFromBytes: 0 });
        }
      } finally {
        await host.close();
      }
    });
  }

  it('should resume a body cut short with a Range request and end with the whole archive', async () => {
    let first = true;
    const etag = '"archive-v1"';
    const host = await startFramedServer('close', (request): FramedAnswer => {
      if (first) {
        first = false;
        return { framing: 'cut', headers: { etag }, body: ARCHIVE };
      }
      const start = Number(/^bytes=(\d+)-$/.exec(String(request.headers.range))?.[1] ?? 0);
      if (start === 0 || request.headers['if-range'] !== etag) return { headers: { etag }, body: ARCHIVE };
      const range = `bytes ${start}-${ARCHIVE.length - 1}/${ARCHIVE.length}`;
      return { status: 206, headers: { etag, 'content-range': range }, body: ARCHIVE.subarray(start) };
    });
    try {
      const destination = join(dir, 'resumed.tar.bz2');
      const result = await downloadModelArchive({ ...options, maxRetries: 2, url: `${host.url}/model.tar.bz2`, destination });
      expect(result.sha256).toBe(SHA);
      expect(result.resumedFromBytes).toBeGreaterThan(0);
      expect(host.requests[1]?.headers.range).toBe(`bytes=${result.resumedFromBytes}-`);
    } finally {
      await host.close();
    }
  });

  it('should fail with upstream_unreachable, not a crash, when every attempt is cut short', async () => {
    const host = await startFramedServer('cut', () => ({ body: ARCHIVE }));
    try {
      const destination = join(dir, 'always-cut.tar.bz2');
      const error = await downloadModelArchive({ ...options, maxRetries: 1, url: `${host.url}/model.tar.bz2`, destination }).catch(
        (failure: unknown) => failure,
      );
      expect(isAppError(error, 'upstream_unreachable')).toBe(true);
      expect(host.requests.length).toBe(2);
    } finally {
      await host.close();
    }
  });
});
