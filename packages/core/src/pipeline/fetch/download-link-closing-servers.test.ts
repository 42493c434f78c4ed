import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { CLOSING_FRAMINGS, startFramedServer } from '../../platform/http/test-support/start-framed-server.ts';
import type { FramedServer } from '../../platform/http/test-support/start-framed-server.ts';
import { downloadLink } from './download-link.ts';

// Link hosts as they are: python's http.server (HTTP/1.0), hosts that close right after the body,
// bodies delimited by the end of the connection. With undici's HTTP/1 parser such a host crashed
// the whole process (an uncatchable assertion when the FIN arrived while the body was paused).

/** 20 MiB: a download whose writer falls behind loopback, as a real recording's would. */
const BODY = Buffer.alloc(20 * 1024 * 1024, 0x61);
const SHA = createHash('sha256').update(BODY).digest('hex');
const options = { maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000, allowPrivateNetwork: true };

let dir: string;
const servers: FramedServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'closing-links-'));
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function serve(framing: Parameters<typeof startFramedServer>[0]): Promise<FramedServer> {
  const server = await startFramedServer(framing, () => ({ headers: { 'content-type': 'audio/wav' }, body: BODY }));
  servers.push(server);
  return server;
}

describe('downloadLink from hosts that close the connection right after the body', () => {
  for (const framing of CLOSING_FRAMINGS) {
    it(`should download a 20 MiB body framed as ${framing} whole, three times in a row`, async () => {
      const server = await serve(framing);
      for (let round = 0; round < 3; round += 1) {
        const dest = join(dir, `${framing}-${round}`);
        const result = await downloadLink(`${server.url}/talk.wav`, dest, options);
        expect(result).toEqual({ bytes: BODY.length, contentType: 'audio/wav' });
        expect(
          createHash('sha256')
            .update(await readFile(dest))
            .digest('hex'),
        ).toBe(SHA);
        await rm(dest);
      }
    });
  }

  it('should fail a body cut short after its retries, and keep no partial file', async () => {
    const server = await serve('cut');
    const dest = join(dir, 'cut');
    const error = await downloadLink(`${server.url}/talk.wav`, dest, { ...options, maxAttempts: 2 }).catch((failure: unknown) => failure);
    expect(isAppError(error, 'upstream_unreachable')).toBe(true);
    expect((error as Error).message).toMatch(/failed before the recording was fully received/);
    expect(server.requests.length).toBe(2);
    await expect(stat(dest)).rejects.toThrow(/ENOENT/);
  });
});
