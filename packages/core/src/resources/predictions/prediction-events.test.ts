import { describe, expect, it } from 'vitest';
import { createPredictionEvents, type PredictionEvent } from './prediction-events.ts';

describe('createPredictionEvents', () => {
  it('calls listeners synchronously, in subscription order, and waits for their promises', async () => {
    const events = createPredictionEvents();
    const seen: string[] = [];
    let release!: () => void;
    events.subscribe((event) => void seen.push(`a:${event.type}`));
    events.subscribe(async (event) => {
      seen.push(`b:${event.type}`);
      await new Promise<void>((resolve) => (release = resolve));
      seen.push('b:done');
    });
    const published = events.publish({ type: 'ended', predictionId: 'p1' });
    expect(seen).toEqual(['a:ended', 'b:ended']); // before any await
    let settled = false;
    void published.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    release();
    await published;
    expect(seen).toEqual(['a:ended', 'b:ended', 'b:done']);
  });

  it('never rejects: listener errors go to onError, the other listeners still run', async () => {
    const errors: [string, PredictionEvent][] = [];
    const events = createPredictionEvents((error, event) => errors.push([error.message, event]));
    const seen: string[] = [];
    events.subscribe(() => {
      throw new Error('sync');
    });
    events.subscribe(() => Promise.reject(new Error('async')));
    events.subscribe((event) => void seen.push(event.predictionId));
    await expect(events.publish({ type: 'started', predictionId: 'p2' })).resolves.toBeUndefined();
    expect(seen).toEqual(['p2']);
    expect(errors.map(([message]) => message)).toEqual(['sync', 'async']);
  });

  it('publishes to no one after unsubscribe', async () => {
    const events = createPredictionEvents();
    const seen: string[] = [];
    const unsubscribe = events.subscribe((event) => void seen.push(event.type));
    await events.publish({ type: 'log-appended', predictionId: 'p3' });
    unsubscribe();
    await events.publish({ type: 'log-appended', predictionId: 'p3' });
    expect(seen).toEqual(['log-appended']);
  });
});
