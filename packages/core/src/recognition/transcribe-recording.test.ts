import { describe, expect, it } from 'vitest';
import { resolveDefaultVadModelPath } from './locate-vad-model.ts';
import { createPocketsphinxEngine } from './pocketsphinx-engine.ts';
import { readWavLayout } from './read-wav-layout.ts';
import { audioPath } from './shared-audio.test-helper.ts';
import { describeSpeech, transcribeRecording } from './transcribe-recording.ts';

async function transcribe(file: string, stages: string[] = []) {
  const wavPath = audioPath(file);
  const { durationSeconds } = await readWavLayout(wavPath);
  return transcribeRecording({
    wavPath,
    durationSeconds,
    formatName: 'wav',
    engine: createPocketsphinxEngine(),
    vadModelPath: resolveDefaultVadModelPath(),
    language: null,
    prompt: null,
    hotwords: ['Americans'],
    onStage: (line) => stages.push(line),
  });
}

describe('transcribeRecording', () => {
  it.each([
    'nonspeech/generated_white_noise_10s.wav',
    'nonspeech/generated_digital_silence_10s.wav',
    'nonspeech/pisets_no_speech.wav',
    'music/brahms_hungarian_dance_5_us_army_strings_16k.wav',
  ])('should give no segments and language null for %s', async (file) => {
    const stages: string[] = [];
    const transcript = await transcribe(file, stages);
    expect(transcript).toMatchObject({ segments: [], vad: [], language: null, languages: [], speakers: [] });
    expect(transcript.source.format).toBe('wav');
    expect(transcript.source.length).toBeGreaterThan(9.9);
    expect(stages).toEqual(['VAD: no speech']);
  });

  it('should transcribe jfk.wav into English segments inside the VAD intervals', async () => {
    const stages: string[] = [];
    const transcript = await transcribe('jfk.wav', stages);
    expect(transcript.vad).toHaveLength(4);
    expect(transcript.language).toBe('en');
    expect(transcript.languages).toEqual([{ code: 'en', name: 'English', probability: null, duration: null }]);
    expect(transcript.speakers).toEqual([]);
    expect(stages[0]).toMatch(/^VAD: 4 speech intervals, \d+\.\d s of speech$/);
    expect(stages.at(-1)).toBe('recognized 100%');
    const text = transcript.segments.map((segment) => segment.text).join(' ');
    expect(text).toContain('what your country can do for you');
    for (const segment of transcript.segments) {
      expect(segment).toMatchObject({ speaker: null, language: 'en' });
      expect(segment.text).toBe(segment.words.map((word) => word.text).join(' '));
      for (const word of segment.words) {
        expect(transcript.vad.some((v) => word.start < v.end && word.end > v.start)).toBe(true);
      }
    }
  });
});

describe('describeSpeech', () => {
  it('should count intervals and seconds of speech', () => {
    expect(describeSpeech([{ start: 0.29, end: 2.28 }, { start: 3.26, end: 4.46 }])).toBe('VAD: 2 speech intervals, 3.2 s of speech');
    expect(describeSpeech([{ start: 1, end: 2 }])).toBe('VAD: 1 speech interval, 1.0 s of speech');
    expect(describeSpeech([])).toBe('VAD: no speech');
  });
});
