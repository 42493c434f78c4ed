import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectSpeech } from './vad/detect-speech.ts';
import { resolveDefaultVadModelPath } from './vad/locate-vad-model.ts';
import { audioPath } from './recognize/shared-audio.test-helper.ts';
import type { VadInterval } from '../contract/output/transcript-model.ts';
import { startDiarization } from './start-diarization.ts';

const SAMPLE = audioPath('multispeaker/pyannote_sample.wav');
let speech: VadInterval[];

beforeAll(async () => {
  speech = await detectSpeech(SAMPLE, { modelPath: resolveDefaultVadModelPath() });
});

const start = (overrides: Partial<Parameters<typeof startDiarization>[0]> = {}) =>
  startDiarization({ wavPath: SAMPLE, speech, speakers: 2, domain: null, modelsDir: null, ...overrides });

describe('startDiarization', () => {
  it('should give the speaker turns of the recording when awaited', async () => {
    const turns = await start().turns;
    expect([...new Set(turns.map((turn) => turn.speaker))]).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    expect(turns[0]!.start).toBeGreaterThanOrEqual(speech[0]!.start);
  });

  it('should label all speech as one speaker when the count is unset and there is under 10 s of speech', async () => {
    const short = [
      { start: 1, end: 4 },
      { start: 5, end: 9 },
    ];
    const turns = await start({ speech: short, speakers: null }).turns;
    expect(turns).toEqual(short.map((region) => ({ ...region, speaker: 'SPEAKER_1' })));
  });

  it('should stop the diarizer when cancelled', async () => {
    const run = start();
    run.cancel();
    await expect(run.turns).rejects.toThrow('Diarization no longer needed.');
  });

  it('should stop with the reason of the request signal when it is aborted', async () => {
    const controller = new AbortController();
    const run = start({ signal: controller.signal });
    controller.abort(new Error('prediction canceled'));
    await expect(run.turns).rejects.toThrow('prediction canceled');
  });

  it('should keep a failure for the caller, without an unhandled rejection while it is not awaited', async () => {
    const run = start({ wavPath: audioPath('jfk.txt') });
    await sleep(200); // recognition would run here; an unhandled rejection would fail this test run
    await expect(run.turns).rejects.toMatchObject({ name: 'AppError', code: 'media_unreadable' });
  });
});
