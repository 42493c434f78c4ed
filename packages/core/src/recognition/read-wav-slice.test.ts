import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseWavHeader, readWavLayout } from './read-wav-layout.ts';
import { readWavSlice } from './read-wav-slice.ts';
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
