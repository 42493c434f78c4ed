/** Hand-made RIFF/WAVE files for the tests of the WAV reader (read-wav-layout.ts, read-wav-samples.ts). */

/** A RIFF chunk: id, little-endian size (`declaredSize`, default the payload's), payload, pad byte when the size is odd. */
export function riffChunk(id: string, payload: Buffer, declaredSize = payload.length): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(declaredSize, 4);
  return Buffer.concat([head, payload, Buffer.alloc(payload.length % 2)]);
}

/**
 * A `fmt ` chunk: 16 bytes, or 40 for WAVE_FORMAT_EXTENSIBLE (0xFFFE), whose sub-format GUID then starts
 * with `subFormat` (1 = integer PCM, 3 = float).
 */
export function fmtChunk(formatTag: number, channels = 1, sampleRate = 16000, bits = 16, subFormat = 1): Buffer {
  const body = Buffer.alloc(formatTag === 0xfffe ? 40 : 16);
  body.writeUInt16LE(formatTag, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(sampleRate, 4);
  body.writeUInt32LE((sampleRate * channels * bits) / 8, 8);
  body.writeUInt16LE((channels * bits) / 8, 12);
  body.writeUInt16LE(bits, 14);
  if (formatTag === 0xfffe) body.writeUInt16LE(subFormat, 24);
  return riffChunk('fmt ', body);
}

/** A RIFF/WAVE file of `chunks`. */
export function waveFile(...chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), ...chunks]);
  return Buffer.concat([riffChunk('RIFF', Buffer.alloc(0), body.length), body]);
}

/** Little-endian int16 samples. */
export function int16Samples(values: number[]): Buffer {
  const data = Buffer.alloc(values.length * 2);
  values.forEach((value, index) => data.writeInt16LE(value, index * 2));
  return data;
}
