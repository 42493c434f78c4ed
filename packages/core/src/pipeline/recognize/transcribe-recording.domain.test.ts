import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIO_DIR } from './shared-audio.test-helper.ts';
import { resolveDefaultVadModelPath } from '../vad/locate-vad-model.ts';
import { createPocketsphinxEngine } from './engines/pocketsphinx/pocketsphinx-engine.ts';
import { transcribeRecording } from './transcribe-recording.ts';

const MUSIC = join(AUDIO_DIR, 'music/brahms_hungarian_dance_5_us_army_strings_16k.wav');

describe('transcribeRecording with a domain (spec 2.2: passed to recognition)', () => {
  const base = {
    wavPath: MUSIC,
    formatName: 'wav',
    engine: createPocketsphinxEngine({ processes: 1 }),
    vadModelPath: resolveDefaultVadModelPath(),
    language: null,
    prompt: null,
    hotwords: [],
  };

  it('should recognise nothing in instrumental music by default, but the whole recording with domain song', async () => {
    const { readWavLayout } = await import('../decode/read-wav-layout.ts');
    const durationSeconds = Math.min((await readWavLayout(MUSIC)).durationSeconds, 10); // the first 10 s keep the test cheap
    const general = await transcribeRecording({ ...base, durationSeconds });
    expect(general.segments).toEqual([]);
    const song = await transcribeRecording({ ...base, durationSeconds, domain: 'song' });
    expect(song.vad).toEqual([]); // VAD still reports no speech
    expect(song.segments.length).toBeGreaterThan(0);
  });
});
