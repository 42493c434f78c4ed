import { describe, expect, it } from 'vitest';
import { isAppError } from '@transcribe/core';
import { FAKE_ENGINE_TEXT, createFakeEngine } from '../test-support/create-fake-engine.ts';
import { checkEnv, parseEnv } from './env.ts';
import { assertFakeEngineAllowed, selectEngine } from './select-engine.ts';

const request = {
  wavPath: '/data/work/abc123/audio.wav',
  durationSeconds: 3,
  speech: [{ start: 0.5, end: 2.5 }],
  language: null,
  prompt: null,
  hotwords: [],
};

describe('the fake recognition engine (load and fault tests only)', () => {
  it('should answer one fixed segment over the first speech interval and count its calls', async () => {
    const engine = createFakeEngine({ delayMs: 0 });
    const segments = await engine.recognize(request);
    expect(segments).toHaveLength(1);
    expect(segments[0]).toMatchObject({ start: 0.5, end: 2.5, text: FAKE_ENGINE_TEXT });
    expect(segments[0]!.words.every((word) => word.start >= 0.5 && word.end <= 2.5)).toBe(true);
    expect(engine.stats).toMatchObject({ calls: 1, active: 0, maxActive: 1 });
  });

  it('should stop waiting when aborted', async () => {
    const engine = createFakeEngine({ delayMs: 60_000 });
    const controller = new AbortController();
    const running = engine.recognize({ ...request, signal: controller.signal });
    controller.abort(new Error('shutdown'));
    await expect(running).rejects.toThrow();
    expect(engine.stats.active).toBe(0);
  });

  it('should refuse to be selected outside NODE_ENV=test without ALLOW_FAKE_ENGINE=1', async () => {
    expect(() => assertFakeEngineAllowed({ nodeEnv: 'production', allowFakeEngine: false })).toThrow(
      /only with NODE_ENV=test or ALLOW_FAKE_ENGINE=1/,
    );
    expect(() => assertFakeEngineAllowed({ nodeEnv: undefined, allowFakeEngine: true })).not.toThrow();
    const refused = await selectEngine(parseEnv({ RECOGNITION_ENGINE: 'fake', NODE_ENV: 'production' })).catch((error: unknown) => error);
    expect(isAppError(refused, 'engine_unavailable')).toBe(true);
    const chosen = await selectEngine(parseEnv({ RECOGNITION_ENGINE: 'fake', NODE_ENV: 'test' }));
    expect(chosen.name).toBe('fake');
  });

  it('should refuse its crash trigger outside NODE_ENV=test, even with ALLOW_FAKE_ENGINE=1', async () => {
    expect(() => assertFakeEngineAllowed({ nodeEnv: 'production', allowFakeEngine: true, crash: 'exit' })).toThrow(
      'FAKE_ENGINE_CRASH makes the fake engine end the process on purpose; it runs only with NODE_ENV=test.',
    );
    expect(() => assertFakeEngineAllowed({ nodeEnv: 'production', allowFakeEngine: true })).not.toThrow();
    expect(() => assertFakeEngineAllowed({ nodeEnv: 'test', allowFakeEngine: false, crash: 'throw' })).not.toThrow();
    const env = { RECOGNITION_ENGINE: 'fake', ALLOW_FAKE_ENGINE: '1', FAKE_ENGINE_CRASH: 'exit' };
    const refused = await selectEngine(parseEnv({ ...env, NODE_ENV: 'production' })).catch((error: unknown) => error);
    expect(isAppError(refused, 'engine_unavailable')).toBe(true);
    // checkEnv, not parseEnv: parseEnv exits the process on a bad value (it would end the test worker).
    expect(checkEnv({ FAKE_ENGINE_CRASH: 'abort' }).problems).toEqual([
      expect.stringMatching(/^Invalid environment variable FAKE_ENGINE_CRASH: /),
    ]);
  });
});
