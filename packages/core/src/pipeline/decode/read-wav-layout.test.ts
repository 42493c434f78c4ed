import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { assertPcm16kMono, parseWavHeader, readWavLayout } from './read-wav-layout.ts';
import { fmtChunk, int16Samples, riffChunk, waveFile } from './test-support/build-wav.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'read-wav-layout-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The error parseWavHeader throws for `file`, or null. */
function parseFailure(file: Buffer): unknown {
  try {
    parseWavHeader(file, file.length);
    return null;
  } catch (error) {
    return error;
  }
}

function assertFailure(layout: ReturnType<typeof parseWavHeader>): unknown {
  try {
    assertPcm16kMono(layout, 'x.wav');
    return null;
  } catch (error) {
    return error;
  }
}

describe('readWavLayout', () => {
  it('should find the data chunk of jfk.wav after its LIST chunk', async () => {
    const path = audioPath('jfk.wav');
    const layout = await readWavLayout(path);
    expect(layout).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, formatTag: 1, dataOffset: 78 });
    expect(layout.durationSeconds).toBeCloseTo(11, 1);
    expect(layout.dataOffset + layout.dataBytes).toBe((await stat(path)).size);
    expect((await readFile(path)).toString('latin1', layout.dataOffset - 8, layout.dataOffset - 4)).toBe('data');
  });

  it('should read a file on disk the same as its bytes', async () => {
    const file = waveFile(fmtChunk(1), riffChunk('data', int16Samples([1, 2, 3])));
    const path = join(dir, 'three.wav');
    await writeFile(path, file);
    expect(await readWavLayout(path)).toEqual(parseWavHeader(file, file.length));
  });

  it('should skip an odd-sized chunk including its pad byte', () => {
    const file = waveFile(riffChunk('junk', Buffer.from('abc')), fmtChunk(1), riffChunk('data', Buffer.alloc(3200)));
    const layout = parseWavHeader(file, file.length);
    expect(layout.dataOffset).toBe(12 + 12 + 24 + 8);
    expect(layout.durationSeconds).toBeCloseTo(0.1, 6);
  });

  it('should read WAVE_FORMAT_EXTENSIBLE as the format of its sub-format', () => {
    const pcm = waveFile(fmtChunk(0xfffe, 2, 8000), riffChunk('data', int16Samples([1, 2, 3, 4])));
    expect(parseWavHeader(pcm, pcm.length)).toMatchObject({ formatTag: 1, sampleRate: 8000, channels: 2, bitsPerSample: 16, dataBytes: 8 });
    const float = waveFile(fmtChunk(0xfffe, 1, 16000, 32, 3), riffChunk('data', Buffer.alloc(8)));
    expect(parseWavHeader(float, float.length).formatTag).toBe(3);
  });

  it('should use the bytes present when the data size is unset (0xFFFFFFFF, 0) or too large', () => {
    for (const declared of [0xffffffff, 1000, 0]) {
      const file = waveFile(fmtChunk(1), riffChunk('data', int16Samples([5, 6, 7]), declared));
      expect(parseWavHeader(file, file.length).dataBytes).toBe(6);
    }
  });

  it.each([
    ['an mp3 file', Buffer.from('ID3 this is an mp3 file')],
    ['a WAV without data chunk', waveFile(fmtChunk(1))],
    ['a data chunk before the fmt chunk', waveFile(riffChunk('data', Buffer.alloc(4)), fmtChunk(1))],
    ['a short fmt chunk', waveFile(riffChunk('fmt ', Buffer.alloc(8)), riffChunk('data', Buffer.alloc(4)))],
  ])('should refuse %s with media_unreadable', (_name, file) => {
    expect(isAppError(parseFailure(file), 'media_unreadable')).toBe(true);
  });
});

describe('assertPcm16kMono', () => {
  it('should accept 16 kHz mono 16-bit integer PCM, also in an extensible header', () => {
    for (const fmt of [fmtChunk(1), fmtChunk(0xfffe)]) {
      const file = waveFile(fmt, riffChunk('data', Buffer.alloc(4)));
      expect(assertFailure(parseWavHeader(file, file.length))).toBeNull();
    }
  });

  it.each([
    ['44.1 kHz audio', fmtChunk(1, 1, 44100), '44100 Hz'],
    ['stereo', fmtChunk(1, 2), '2 channel(s)'],
    ['float samples', fmtChunk(3, 1, 16000, 32), 'format 3'],
    ['float samples in an extensible header', fmtChunk(0xfffe, 1, 16000, 32, 3), 'format 3'],
  ])('should refuse %s with recognition_failed naming it', (_name, fmt, named) => {
    const file = waveFile(fmt, riffChunk('data', Buffer.alloc(8)));
    const caught = assertFailure(parseWavHeader(file, file.length));
    expect(isAppError(caught, 'recognition_failed')).toBe(true);
    expect((caught as Error).message).toContain(named);
  });
});
