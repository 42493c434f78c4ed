import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { decodeToPcm } from './decode-to-pcm.ts';
import { readWavChunks, readWavHeader } from './read-wav-samples.ts';

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

/** A RIFF chunk: id, little-endian size, payload, pad byte when the size is odd. */
function chunk(id: string, payload: Buffer, declaredSize = payload.length): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(declaredSize, 4);
  return Buffer.concat([head, payload, Buffer.alloc(payload.length % 2)]);
}

function fmt(formatTag: number, channels = 1, sampleRate = 16000, bits = 16): Buffer {
  const body = Buffer.alloc(formatTag === 0xfffe ? 40 : 16);
  body.writeUInt16LE(formatTag, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(sampleRate, 4);
  body.writeUInt32LE((sampleRate * channels * bits) / 8, 8);
  body.writeUInt16LE((channels * bits) / 8, 12);
  body.writeUInt16LE(bits, 14);
  if (formatTag === 0xfffe) body.writeUInt16LE(1, 24); // sub-format GUID starts with PCM = 1
  return chunk('fmt ', body);
}

function wav(...chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), ...chunks]);
  return Buffer.concat([chunk('RIFF', Buffer.alloc(0), body.length), body]);
}

function samples(values: number[]): Buffer {
  const data = Buffer.alloc(values.length * 2);
  values.forEach((value, index) => data.writeInt16LE(value, index * 2));
  return data;
}

async function collect(path: string, chunkSamples: number): Promise<Float32Array[]> {
  const chunks: Float32Array[] = [];
  for await (const piece of readWavChunks(path, chunkSamples)) chunks.push(piece);
  return chunks;
}

describe('readWavHeader', () => {
  it('should skip the LIST chunk of jfk.wav and find the data chunk', async () => {
    const header = await readWavHeader(JFK);
    expect(header).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
    expect(header.dataOffset).toBeGreaterThan(44);
    expect(header.dataOffset + header.dataBytes).toBe((await stat(JFK)).size);
    expect((await readFile(JFK)).toString('latin1', header.dataOffset - 8, header.dataOffset - 4)).toBe('data');
  });

  it('should confirm a file made by decodeToPcm is 16 kHz mono 16-bit', async () => {
    expect(await readWavHeader(decoded)).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
  });

  it('should step over odd-sized chunks with their pad byte and read WAVE_FORMAT_EXTENSIBLE', async () => {
    const path = join(dir, 'odd.wav');
    const data = samples([1, 2, 3, 4]);
    await writeFile(path, wav(chunk('junk', Buffer.from('abc')), fmt(0xfffe, 2, 8000), chunk('data', data)));
    const header = await readWavHeader(path);
    expect(header).toMatchObject({ sampleRate: 8000, channels: 2, bitsPerSample: 16, dataBytes: 8 });
    expect(header.dataOffset).toBe(12 + 12 + 48 + 8);
  });

  it('should use the bytes present when the data size is unset (0xFFFFFFFF) or too large', async () => {
    const data = samples([5, 6, 7]);
    for (const declared of [0xffffffff, 1000, 0]) {
      const path = join(dir, `size-${declared}.wav`);
      await writeFile(path, wav(fmt(1), chunk('data', data, declared)));
      expect((await readWavHeader(path)).dataBytes).toBe(6);
    }
  });

  it.each([
    ['a text file', Buffer.from('hello world, not a wav file at all')],
    ['a WAV without data chunk', wav(fmt(1))],
    ['float samples', wav(fmt(3, 1, 16000, 32), chunk('data', Buffer.alloc(8)))],
  ])('should throw media_unreadable for %s', async (_name, content) => {
    const path = join(dir, 'bad.wav');
    await writeFile(path, content);
    const error = await readWavHeader(path).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isAppError(error, 'media_unreadable')).toBe(true);
  });
});

describe('readWavChunks', () => {
  it('should yield every sample of a decoded file in chunks of the asked size, within [-1, 1)', async () => {
    const header = await readWavHeader(decoded);
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
    const header = await readWavHeader(JFK);
    const [first] = await collect(JFK, 777);
    expect(first?.length).toBe(777);
    const expected = Array.from({ length: 777 }, (_, index) => raw.readInt16LE(header.dataOffset + index * 2) / 32768);
    expect(Array.from(first ?? [])).toEqual(expected.map((value) => Math.fround(value)));
  });

  it('should map the int16 extremes to -1 and just under 1', async () => {
    const path = join(dir, 'extremes.wav');
    await writeFile(path, wav(fmt(1), chunk('LIST', Buffer.from('INFOxxxxx')), chunk('data', samples([-32768, 0, 32767]))));
    const [piece] = await collect(path, 10);
    expect(Array.from(piece ?? [])).toEqual([-1, 0, Math.fround(32767 / 32768)]);
  });

  it('should yield nothing for an empty data chunk', async () => {
    const path = join(dir, 'empty.wav');
    await writeFile(path, wav(fmt(1), chunk('data', Buffer.alloc(0))));
    expect(await collect(path, 100)).toEqual([]);
  });
});
