import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { fetchMedia } from './fetch-media.ts';
import type { FetchMediaOptions } from './fetch-media.ts';
import { probeMedia } from '../decode/probe-media.ts';

const OGG = '/work/shared/audio/fleurs/original-ogg/fleurs-en-001.ogg';
const options: FetchMediaOptions = { maxBytes: 20 * 1024 * 1024, timeoutMs: 10_000, allowPrivateNetwork: true };
let dir: string;
let server: http.Server;
let base: string;
let ogg: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fetch-media-'));
  ogg = await readFile(OGG);
  server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'Audio/Ogg; codecs=opus' }).end(ogg);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('fetchMedia', () => {
  it('should download an http link and give its bare media type', async () => {
    const path = join(dir, 'link.bin');
    const result = await fetchMedia(`${base}/speech.ogg`, path, options);
    expect(result).toEqual({ bytes: ogg.length, mimeType: 'audio/ogg' });
    expect((await probeMedia(path)).formatName).toBe('ogg');
  });

  it('should decode a data URI', async () => {
    const path = join(dir, 'data.bin');
    const result = await fetchMedia(`data:audio/ogg;base64,${ogg.toString('base64')}`, path, options);
    expect(result).toEqual({ bytes: ogg.length, mimeType: 'audio/ogg' });
    expect((await readFile(path)).equals(ogg)).toBe(true);
  });

  it('should apply maxBytes to data URIs too', async () => {
    const error = await fetchMedia(`data:;base64,${ogg.toString('base64')}`, join(dir, 'big.bin'), { ...options, maxBytes: 1000 }).catch(
      (caught: unknown) => caught,
    );
    expect(isAppError(error, 'media_too_large')).toBe(true);
  });

  it.each(['/tmp/recording.wav', 'ftp://example.com/a.wav', 'file:///etc/passwd', ''])(
    'should refuse %j with invalid_input',
    async (audio) => {
      const error = await fetchMedia(audio, join(dir, 'x.bin'), options).catch((caught: unknown) => caught);
      expect(isAppError(error, 'invalid_input')).toBe(true);
      expect((error as { param?: string }).param).toBe('audio');
    },
  );

  it('should keep the address check for links', async () => {
    const error = await fetchMedia(`${base}/speech.ogg`, join(dir, 'y.bin'), { ...options, allowPrivateNetwork: false }).catch(
      (caught: unknown) => caught,
    );
    expect(isAppError(error, 'address_not_allowed')).toBe(true);
  });
});
