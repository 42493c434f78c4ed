import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createVadWorkerPool, type VadWorkerPool } from './create-vad-worker-pool.ts';
import { detectSpeech } from './detect-speech.ts';
import { resolveDefaultVadModelPath } from './locate-vad-model.ts';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';

const modelPath = resolveDefaultVadModelPath();

/** The thread id of the worker the pool would give next, given back at once. */
function nextThreadId(pool: VadWorkerPool): number {
  const worker = pool.take();
  pool.keep(worker);
  return worker.threadId;
}

describe('createVadWorkerPool', () => {
  const pools: VadWorkerPool[] = [];
  const makePool = (idleMs?: number) => {
    const pool = createVadWorkerPool(idleMs === undefined ? {} : { idleMs });
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.close();
  });

  it('should run the next detection on the worker of the previous one, with the same intervals as a worker of its own', async () => {
    const pool = makePool();
    const alone = await detectSpeech(audioPath('jfk.wav'), { modelPath });
    const first = await detectSpeech(audioPath('jfk.wav'), { modelPath, workers: pool });
    const kept = nextThreadId(pool);
    const second = await detectSpeech(audioPath('jfk.wav'), { modelPath, workers: pool });
    expect(nextThreadId(pool)).toBe(kept);
    expect(first).toEqual(alone);
    expect(second).toEqual(alone);
  });

  it('should run two detections at once and then keep a single free worker: another one given back ends', async () => {
    const pool = makePool();
    const [a, b] = await Promise.all([
      detectSpeech(audioPath('jfk.wav'), { modelPath, workers: pool }),
      detectSpeech(audioPath('jfk.wav'), { modelPath, workers: pool }),
    ]);
    expect(a).toEqual(b);
    const kept = pool.take(); // the worker kept after the two
    const other = pool.take(); // none is free now: a new worker
    expect(other.threadId).not.toBe(kept.threadId);
    pool.keep(kept);
    pool.keep(other); // one is kept already: this one ends
    await new Promise((resolve) => other.once('exit', resolve));
    expect(nextThreadId(pool)).toBe(kept.threadId);
  });

  it('should take back the worker of an aborted detection once it stopped, and detect with it afterwards', async () => {
    const pool = makePool();
    const controller = new AbortController();
    let seen = 0;
    const running = detectSpeech(audioPath('long_hifitts6097_concat_16k.wav'), {
      modelPath,
      workers: pool,
      signal: controller.signal,
      onProgress: () => {
        if (++seen === 2) controller.abort(new Error('stop mid-run'));
      },
    });
    await expect(running).rejects.toThrow('stop mid-run');
    const intervals = await detectSpeech(audioPath('jfk.wav'), { modelPath, workers: pool });
    expect(intervals).toHaveLength(4);
  });

  it('should end a kept worker after idleMs unused, and at close', async () => {
    const pool = makePool(100);
    await detectSpeech(audioPath('jfk.wav'), { modelPath, workers: pool });
    const idle = pool.take();
    pool.keep(idle);
    await new Promise((resolve) => idle.once('exit', resolve)); // ended by the idle timer
    const fresh = nextThreadId(pool);
    expect(fresh).not.toBe(idle.threadId);
    const closing = makePool();
    await detectSpeech(audioPath('jfk.wav'), { modelPath, workers: closing });
    const kept = closing.take();
    closing.keep(kept);
    const exited = new Promise((resolve) => kept.once('exit', resolve));
    await closing.close();
    await Promise.race([exited, sleep(5000).then(() => Promise.reject(new Error('the kept worker did not end at close')))]);
  });
});
