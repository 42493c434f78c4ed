import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { createDataUriDecoder, isDataUri, writeDataUri } from './decode-data-uri.ts';
import { failure } from '../decode/test-support/failure-of.ts';

const JFK = '/work/shared/audio/jfk.wav';
const LIMIT = { maxBytes: 50 * 1024 * 1024 };
let dir: string;
let jfk: Buffer;
let count = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'data-uri-'));
  jfk = await readFile(JFK);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function dest(): string {
  count += 1;
  return join(dir, `out-${count}.bin`);
}

describe('writeDataUri', () => {
  describe('when the URI is well formed', () => {
    it('should decode data:audio/x-wav;base64 of jfk.wav byte-identical', async () => {
      const path = dest();
      const result = await writeDataUri(`data:audio/x-wav;base64,${jfk.toString('base64')}`, path, LIMIT);
      expect(result).toEqual({ bytes: jfk.length, mimeType: 'audio/x-wav' });
      expect((await readFile(path)).equals(jfk)).toBe(true);
    });

    it('should accept an empty media type (data:;base64,)', async () => {
      const path = dest();
      const result = await writeDataUri(`data:;base64,${jfk.toString('base64')}`, path, LIMIT);
      expect(result.mimeType).toBe('application/octet-stream');
      expect((await readFile(path)).equals(jfk)).toBe(true);
    });

    it('should accept application/octet-stream with parameters and upper-case DATA:', async () => {
      const path = dest();
      const result = await writeDataUri(`DATA:Application/Octet-Stream;name=a.wav;BASE64,${jfk.toString('base64')}`, path, LIMIT);
      expect(result.mimeType).toBe('application/octet-stream');
      expect((await stat(path)).size).toBe(jfk.length);
    });

    it('should ignore line breaks and accept missing padding and URL-safe base64', async () => {
      const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0x01, 0x02]);
      const wrapped = bytes.toString('base64').replace(/(.{4})/g, '$1\n');
      const path = dest();
      await writeDataUri(`data:audio/wav;base64,${wrapped}`, path, LIMIT);
      expect((await readFile(path)).equals(bytes)).toBe(true);
      const path2 = dest();
      await writeDataUri(`data:audio/wav;base64,${bytes.toString('base64url')}`, path2, LIMIT);
      expect((await readFile(path2)).equals(bytes)).toBe(true);
    });

    it('should decode percent-encoded plain data', async () => {
      const path = dest();
      const result = await writeDataUri('data:audio/wav,RIFF%00%01%ff%25x', path, LIMIT);
      expect(result.bytes).toBe(9);
      expect([...(await readFile(path))]).toEqual([0x52, 0x49, 0x46, 0x46, 0x00, 0x01, 0xff, 0x25, 0x78]);
    });

    it('should decode long data across slice boundaries (percent escapes, wrapped and escaped base64)', async () => {
      const percent = [...jfk].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
      const wrapped = jfk.toString('base64').replace(/(.{76})/g, '$1\r\n');
      const escaped = jfk.toString('base64').replace(/\+/g, '%2B').replace(/\//g, '%2f').replace(/=/g, '%3D');
      for (const uri of [`data:audio/wav,${percent}`, `data:audio/wav;base64,${wrapped}`, `data:;base64,${escaped}`]) {
        const path = dest();
        await writeDataUri(uri, path, LIMIT);
        expect((await readFile(path)).equals(jfk)).toBe(true);
      }
    });

    it('should round-trip any bytes through base64 and percent encoding', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 300 }).filter((a) => a.length > 0),
          async (data) => {
            const bytes = Buffer.from(data);
            const percent = [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
            for (const uri of [`data:;base64,${bytes.toString('base64')}`, `data:,${percent}`]) {
              const path = dest();
              await writeDataUri(uri, path, LIMIT);
              expect((await readFile(path)).equals(bytes)).toBe(true);
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  describe('when the URI is malformed', () => {
    it.each([
      ['no comma', 'data:audio/wav;base64'],
      ['bad base64 characters', 'data:audio/wav;base64,UklG*RiQ='],
      ['data after padding', 'data:audio/wav;base64,UQ==UklG'],
      ['one stray base64 character', 'data:audio/wav;base64,UklGR'],
      ['a broken % escape', 'data:audio/wav,abc%zz'],
      ['no data', 'data:audio/wav;base64,'],
      ['not a data URI', 'https://example.com/a.wav'],
    ])('should throw invalid_input for %s', async (_name, uri) => {
      const path = dest();
      const error = await failure(writeDataUri(uri, path, LIMIT));
      expect(isAppError(error, 'invalid_input')).toBe(true);
      expect((error as { param?: string }).param).toBe('audio');
      expect(error.message).not.toContain(dir);
      expect(
        await stat(path).then(
          () => true,
          () => false,
        ),
      ).toBe(false);
    });
  });

  describe('when the data is over the limit', () => {
    it('should throw media_too_large and remove the partial file', async () => {
      const path = dest();
      const error = await failure(writeDataUri(`data:audio/x-wav;base64,${jfk.toString('base64')}`, path, { maxBytes: 10_000 }));
      expect(isAppError(error, 'media_too_large')).toBe(true);
      expect(
        await stat(path).then(
          () => true,
          () => false,
        ),
      ).toBe(false);
    });
  });
});

describe('isDataUri', () => {
  it('should tell data URIs from links', () => {
    expect(isDataUri('data:;base64,AAAA')).toBe(true);
    expect(isDataUri('  DATA:audio/wav,x')).toBe(true);
    expect(isDataUri('https://example.com/data:x')).toBe(false);
  });
});

describe('createDataUriDecoder', () => {
  /** Feeds `uri` cut at the given offsets; returns the bytes or the error message. */
  function decodeInPieces(uri: string, cuts: number[]): Buffer | string {
    const decoder = createDataUriDecoder();
    const out: Buffer[] = [];
    let from = 0;
    try {
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        out.push(...decoder.write(uri.slice(from, cut)));
        from = Math.max(from, cut);
      }
      out.push(...decoder.write(uri.slice(from)), ...decoder.end());
      return Buffer.concat(out);
    } catch (error) {
      return (error as Error).message;
    }
  }

  it('should give the same bytes or the same error whatever the pieces (cut inside headers, escapes and surrogates)', () => {
    const uris = fc.oneof(
      fc.uint8Array({ maxLength: 60 }).map((a) => `data:audio/wav;base64,${Buffer.from(a).toString('base64').replace(/\//g, '%2F')}`),
      fc.uint8Array({ maxLength: 40 }).map((a) => ` data:,${[...a].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}😀`),
      fc.string({ maxLength: 40 }).map((text) => `data:;base64,${text}`),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(uris, fc.array(fc.nat({ max: 80 }), { maxLength: 8 }), (uri, cuts) => {
        const whole = decodeInPieces(uri, []);
        expect(decodeInPieces(uri, cuts)).toEqual(whole);
      }),
      { numRuns: 1000 },
    );
  });

  it('should decode a URI fed one character at a time', () => {
    const uri = `data:audio/x-wav;base64,${jfk.subarray(0, 3000).toString('base64')}`;
    const decoder = createDataUriDecoder();
    const out: Buffer[] = [];
    for (const char of uri) out.push(...decoder.write(char));
    out.push(...decoder.end());
    expect(Buffer.concat(out).equals(jfk.subarray(0, 3000))).toBe(true);
    expect(decoder.mimeType).toBe('audio/x-wav');
  });
});

describe('writeDataUri with a signal', () => {
  it('should stop with the reason and remove the partial file', async () => {
    const path = dest();
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    const error = await failure(writeDataUri(`data:;base64,${jfk.toString('base64')}`, path, { ...LIMIT, signal: controller.signal }));
    expect(error.name).toBe('AbortError');
    expect(
      await stat(path).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  });
});
