import PQueue from 'p-queue';
import { describe, expect, it } from 'vitest';
import { WorkerStoppingError } from '../platform/errors/worker-stopping-error.ts';
import { recognitionSlotPriority } from './recognition-slot-priority.ts';
import { runInRecognitionSlot } from './run-in-recognition-slot.ts';

/** A slot holder that ends when `release` is called. */
function holder() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: () => done, release };
}

describe('recognition slots', () => {
  it('should let a short clip queued later overtake a long recording that waits with it', async () => {
    const queue = new PQueue({ concurrency: 1 });
    const first = holder();
    const order: string[] = [];
    const running = runInRecognitionSlot(queue, first.task);
    const t0 = 1_700_000_000_000;
    const long = runInRecognitionSlot(queue, async () => void order.push('long 13.9 h'), undefined, recognitionSlotPriority(50_000, t0));
    const short = runInRecognitionSlot(
      queue,
      async () => void order.push('short 11 s'),
      undefined,
      recognitionSlotPriority(11, t0 + 60_000),
    );
    first.release();
    await Promise.all([running, long, short]);
    expect(order).toEqual(['short 11 s', 'long 13.9 h']);
  });

  it('should not let a long recording starve: work queued after its deadline comes after it', async () => {
    const queue = new PQueue({ concurrency: 1 });
    const first = holder();
    const order: string[] = [];
    const running = runInRecognitionSlot(queue, first.task);
    const t0 = 1_700_000_000_000;
    const long = runInRecognitionSlot(queue, async () => void order.push('long'), undefined, recognitionSlotPriority(600, t0)); // expected 60 s
    const late = runInRecognitionSlot(queue, async () => void order.push('late short'), undefined, recognitionSlotPriority(5, t0 + 61_000));
    first.release();
    await Promise.all([running, long, late]);
    expect(order).toEqual(['long', 'late short']);
  });

  it('should reject a waiting task at once when the process stops, never run it, and let a running one finish', async () => {
    const queue = new PQueue({ concurrency: 1 });
    const first = holder();
    const stopping = new AbortController();
    let ranWaiting = false;
    const running = runInRecognitionSlot(queue, first.task, stopping.signal);
    const waiting = runInRecognitionSlot(queue, async () => void (ranWaiting = true), stopping.signal);
    stopping.abort();
    const refused = await waiting.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(WorkerStoppingError);
    expect((refused as WorkerStoppingError).beforeWork).toBe(true);
    first.release();
    await running; // the running one was left alone
    await queue.onIdle();
    expect(ranWaiting).toBe(false);
    await expect(runInRecognitionSlot(queue, async () => 1, stopping.signal)).rejects.toBeInstanceOf(WorkerStoppingError);
  });

  it("should refuse with the stop's own reason, naming its signal in words", async () => {
    const queue = new PQueue({ concurrency: 1 });
    const first = holder();
    const stopping = new AbortController();
    const running = runInRecognitionSlot(queue, first.task, stopping.signal);
    const waiting = runInRecognitionSlot(queue, async () => 1, stopping.signal);
    stopping.abort(new WorkerStoppingError(true, { signal: 'SIGTERM' }));
    await expect(waiting).rejects.toMatchObject({
      beforeWork: true,
      signal: 'SIGTERM',
      message: 'the service is stopping (SIGTERM); this prediction had not started recognising',
    });
    first.release();
    await running;
    const late = new WorkerStoppingError(false, { signal: 'SIGINT', deadlineMs: 30_000 });
    expect(late.message).toBe('the service is stopping (SIGINT) and its shutdown deadline of 30 s passed');
  });
});
