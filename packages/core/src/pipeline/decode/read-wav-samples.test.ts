import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { decodeToPcm } from './decode-to-pcm.ts';
import { readWavLayout } from './read-wav-layout.ts';
import { readWavChunks } from './read-wav-samples.ts';
import { fmtChunk, int16Samples, riffChunk, waveFile } from './test-support/build-wav.ts';

const JFK = '/work/shared/audio/jfk.wav';
let dir: string;
let decoded: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'read-wav-'));
  decoded = join(dir, 'fleurs.wav');
  await decodeToPcm('/work/shared/audio/fleurs/original-ogg/fleurs-de-000.ogg', decoded);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(path: string, chunkSamples: number): Promise<Float32Array[]> {
  const chunks: Float32Array[] = [];
  for await (const piece of readWavChunks(path, chunkSamples)) chunks.push(piece);
  return chunks;
}

describe('readWavChunks', () => {
  it('should yield every sample of a decoded file in chunks of the asked size, within [-1, 1)', async () => {
    const header = await readWavLayout(decoded);
    const chunks = await collect(decoded, 4000);
    const total = chunks.reduce((sum, piece) => sum + piece.length, 0);
    expect(total).toBe(header.dataBytes / 2);
    expect(chunks.slice(0, -1).every((piece) => piece.length === 4000)).toBe(true);
    expect(chunks.at(-1)?.length).toBeGreaterThan(0);
    const all = chunks.flatMap((piece) => [Math.min(...piece), Math.max(...piece)]);
    expect(Math.min(...all)).toBeGreaterThanOrEqual(-1);
    expect(Math.max(...all)).toBeLessThan(1);
    expect(Math.max(...all)).toBeGreaterThan(0.01);
  });

  it('should match the raw int16 values of jfk.wav divided by 32768', async () => {
    const raw = await readFile(JFK);
    const header = await readWavLayout(JFK);
    const [first] = await collect(JFK, 777);
    expect(first?.length).toBe(777);
    const expected = Array.from({ length: 777 }, (_, index) => raw.readInt16LE(header.dataOffset + index * 2) / 32768);
    expect(Array.from(first ?? [])).toEqual(expected.map((value) => Math.fround(value)));
  });

  it('should map the int16 extremes to -1 and just under 1', async () => {
    const path = join(dir, 'extremes.wav');
    await writeFile(
      path,
      waveFile(fmtChunk(1), riffChunk('LIST', Buffer.from('INFOxxxxx')), riffChunk('data', int16Samples([-32768, 0, 32767]))),
    );
    const [piece] = await collect(path, 10);
    expect(Array.from(piece ?? [])).toEqual([-1, 0, Math.fround(32767 / 32768)]);
  });

  it('should yield nothing for an empty data chunk', async () => {
    const path = join(dir, 'empty.wav');
    await writeFile(path, waveFile(fmtChunk(1), riffChunk('data', Buffer.alloc(0))));
    expect(await collect(path, 100)).toEqual([]);
  });

  it.each([
    ['a text file', Buffer.from('hello world, not a wav file at all')],
    ['float samples', waveFile(fmtChunk(3, 1, 16000, 32), riffChunk('data', Buffer.alloc(8)))],
    ['float samples in an extensible header', waveFile(fmtChunk(0xfffe, 1, 16000, 32, 3), riffChunk('data', Buffer.alloc(8)))],
    ['8-bit samples', waveFile(fmtChunk(1, 1, 16000, 8), riffChunk('data', Buffer.alloc(8)))],
  ])('should refuse %s with media_unreadable', async (_name, content) => {
    const path = join(dir, 'bad.wav');
    await writeFile(path, content);
    const error = await collect(path, 100).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isAppError(error, 'media_unreadable')).toBe(true);
  });
});
