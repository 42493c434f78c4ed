import { openAsBlob } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWavHeader, readWavLayout } from '../decode/read-wav-layout.ts';
import { readWavSlice, sliceWavBlob } from './read-wav-slice.ts';
import { audioPath } from './shared-audio.test-helper.ts';

const JFK = audioPath('jfk.wav');

describe('readWavSlice', () => {
  it('should cut the samples between two times into a standalone 16 kHz mono WAV', async () => {
    const layout = await readWavLayout(JFK);
    const slice = await readWavSlice(JFK, layout, 2.5, 4);
    const sliced = parseWavHeader(slice, slice.length);
    expect(sliced).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, formatTag: 1, dataOffset: 44, dataBytes: 48_000 });
    expect(sliced.durationSeconds).toBe(1.5);
    const whole = await readFile(JFK);
    const from = layout.dataOffset + 2.5 * 16000 * 2;
    expect(slice.subarray(44).equals(whole.subarray(from, from + 48_000))).toBe(true);
  });

  it('should clamp the range to the audio in the file', async () => {
    const layout = await readWavLayout(JFK);
    const tail = await readWavSlice(JFK, layout, 10.5, 30);
    expect(tail.length).toBe(44 + layout.dataBytes - 10.5 * 32000);
    expect((await readWavSlice(JFK, layout, 40, 50)).length).toBe(44);
    expect((await readWavSlice(JFK, layout, -1, 0.5)).length).toBe(44 + 16_000);
  });
});

describe('sliceWavBlob', () => {
  it('should know its size before reading and read the same bytes as readWavSlice', async () => {
    const layout = await readWavLayout(JFK);
    const slice = sliceWavBlob(await openAsBlob(JFK), layout, 2.5, 4);
    expect(slice.size).toBe(44 + 48_000);
    expect(slice.type).toBe('audio/wav');
    const bytes = Buffer.from(await slice.arrayBuffer());
    expect(bytes.equals(await readWavSlice(JFK, layout, 2.5, 4))).toBe(true);
  });

  it('should read the file only when the slice is read', async () => {
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'wav-slice-'));
    try {
      const copy = path.join(scratch, 'copy.wav');
      await copyFile(JFK, copy);
      const layout = await readWavLayout(copy);
      const slice = sliceWavBlob(await openAsBlob(copy), layout, 0, 1);
      await writeFile(copy, Buffer.alloc(10)); // the file changes after the slice was made
      await expect(slice.arrayBuffer()).rejects.toThrow();
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
