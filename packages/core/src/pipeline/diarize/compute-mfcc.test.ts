import { readFile } from 'node:fs/promises';
import Meyda from 'meyda';
import { describe, expect, it } from 'vitest';
import { readWavLayout } from '../decode/read-wav-layout.ts';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { createMfccExtractor, type MfccSettings } from './compute-mfcc.ts';

/** The samples of a 16-bit mono WAV file, as the diarizer feeds them. */
async function readSamples(relative: string): Promise<Int16Array> {
  const header = await readWavLayout(audioPath(relative));
  const bytes = await readFile(audioPath(relative));
  return Int16Array.from({ length: Math.floor(header.dataBytes / 2) }, (_, i) => bytes.readInt16LE(header.dataOffset + 2 * i));
}

/** meyda's own MFCCs (of the samples at int16 scale) of every `stride`-th hop, rounded to float32 as the diarizer stores them. */
function meydaFrames(samples: Int16Array, settings: MfccSettings, hop: number, stride: number): Float32Array[] {
  Object.assign(Meyda, {
    bufferSize: settings.frameSamples,
    sampleRate: settings.sampleRate,
    melBands: settings.melBands,
    numberOfMFCCCoefficients: settings.coefficients,
    windowingFunction: 'hanning',
    melFilterBank: undefined, // meyda rebuilds its cached filters only when the band count changes
  });
  const frames: Float32Array[] = [];
  for (let at = 0; at + settings.frameSamples <= samples.length; at += hop * stride) {
    const mfcc = Meyda.extract('mfcc', Float32Array.from(samples.subarray(at, at + settings.frameSamples))) as unknown as number[];
    frames.push(Float32Array.from(mfcc));
  }
  return frames;
}

function ourFrames(samples: Int16Array, settings: MfccSettings, hop: number, stride: number): Float32Array[] {
  const extract = createMfccExtractor(settings);
  const frames: Float32Array[] = [];
  for (let at = 0; at + settings.frameSamples <= samples.length; at += hop * stride) {
    const out = new Float32Array(settings.coefficients + 2).fill(7);
    extract(samples, at, out, 1);
    expect([out[0], out.at(-1)]).toEqual([7, 7]); // writes exactly its own slot
    frames.push(out.subarray(1, -1));
  }
  return frames;
}

const DIARIZER: MfccSettings = { frameSamples: 512, sampleRate: 16000, melBands: 40, coefficients: 20 };

describe('createMfccExtractor', () => {
  it("should give meyda's MFCCs bit for bit with the diarizer's settings on real speech", async () => {
    const samples = await readSamples('multispeaker/pyannote_sample.wav');
    const expected = meydaFrames(samples, DIARIZER, 256, 3);
    expect(expected.length).toBeGreaterThan(600);
    expect(ourFrames(samples, DIARIZER, 256, 3)).toEqual(expected);
  });

  it("should give meyda's MFCCs bit for bit with other sizes, band counts and coefficient counts", async () => {
    const samples = await readSamples('jfk.wav');
    for (const settings of [
      { frameSamples: 1024, sampleRate: 16000, melBands: 26, coefficients: 13 },
      { frameSamples: 256, sampleRate: 8000, melBands: 40, coefficients: 40 },
    ]) {
      const expected = meydaFrames(samples, settings, 200, 7);
      expect(expected.length).toBeGreaterThan(100);
      expect(ourFrames(samples, settings, 200, 7)).toEqual(expected);
    }
  });

  it("should give meyda's values for silence and for a full-scale square wave", () => {
    const silence = new Int16Array(512);
    const square = Int16Array.from({ length: 512 }, (_, i) => (i % 16 < 8 ? 32767 : -32768));
    for (const samples of [silence, square]) {
      expect(ourFrames(samples, DIARIZER, 512, 1)).toEqual(meydaFrames(samples, DIARIZER, 512, 1));
    }
  });
});
