import { describe, expect, it } from 'vitest';
import { AppError, type LiveRecognitionStream, type RecognitionEngine } from '@transcribe/core';
import { LiveSession } from './live-session.ts';
import { LiveStreamTurns } from './live-stream-turns.ts';

/**
 * A scripted LiveRecognitionStream: the test plays the recogniser (its partial texts, its final
 * text, its backlog), so the session's side of the protocol is checked without timing. The real
 * stream on the streaming fixture model is tested in open-sherpa-live-stream.fixtures.test.ts and
 * through the WebSocket in realtime-streaming.test.ts.
 */
class ScriptedStream implements LiveRecognitionStream {
  readonly model = 'scripted';
  readonly languages = ['en'];
  readonly pid = null;
  readonly exited = Promise.resolve();
  pendingSeconds = 0;
  failed = false;
  pushed = 0;
  closed = false;
  onText: ((text: string) => void) | null = null;
  final: () => Promise<string> = () => Promise.resolve('');
  beginTurn(onText: (text: string) => void): void {
    this.onText = onText;
  }
  push(samples: Float32Array): void {
    this.pushed += samples.length;
  }
  endTurn(): Promise<string> {
    this.onText = null;
    return this.final();
  }
  dropTurn(): void {
    this.onText = null;
  }
  close(): void {
    this.closed = true;
  }
}

/** Turns over a scripted stream whose audio is silence of the asked length, recording every delta sent. */
function scriptedTurns() {
  const stream = new ScriptedStream();
  const deltas: string[] = [];
  const turns = new LiveStreamTurns(
    stream,
    (from, to) => new Float32Array(to - from),
    (_item, delta) => deltas.push(delta),
  );
  return { stream, deltas, turns };
}

describe('LiveStreamTurns', () => {
  it('should send the growth of the partial text as deltas, skip a partial that takes text back, and end with the rest of the final text', async () => {
    const { stream, deltas, turns } = scriptedTurns();
    turns.begin('item_1', 1000);
    expect(turns.streaming('item_1')).toBe(true);
    turns.feed(4000);
    turns.feed(3000); // never backwards
    expect(stream.pushed).toBe(3000);
    stream.onText!(' ta');
    stream.onText!(' ta va');
    stream.onText!(' te'); // not an extension of what was said: waits for the final text
    stream.onText!(' ta va ri');
    expect(deltas).toEqual(['ta', ' va', ' ri']);
    stream.final = () => Promise.resolve('ta va ri go');
    const ended = await turns.end('item_1', 5000);
    expect(stream.pushed).toBe(4000); // the rest of the turn went in before its end
    expect(ended).toEqual({ transcript: 'ta va ri go', rest: ' go' });
    expect(deltas.join('') + ended.rest).toBe(ended.transcript);
    expect(turns.streaming('item_1')).toBe(false);
  });

  it('should send nothing for a dropped turn, and close the stream', () => {
    const { stream, deltas, turns } = scriptedTurns();
    turns.begin('item_1', 0);
    const late = stream.onText!;
    turns.drop();
    late('ta');
    expect(deltas).toEqual([]);
    turns.close();
    expect(stream.closed).toBe(true);
  });
});

describe('LiveSession on a streaming engine', () => {
  const engineWith = (stream: ScriptedStream): RecognitionEngine => ({
    name: 'scripted',
    languages: ['en'],
    defaultLanguage: 'en',
    recognize: () => Promise.reject(new AppError('recognition_failed', 'not used')),
    openLiveStream: () => stream,
  });

  it('should count the audio the stream has not decoded yet in its backlog, close as falling behind, and end the stream', () => {
    const stream = new ScriptedStream();
    const sent: Array<Record<string, unknown>> = [];
    const closes: number[] = [];
    const session = new LiveSession({
      engine: engineWith(stream),
      vadModel: () => new Promise(() => {}), // never needed: the session closes before the VAD runs
      limits: { maxBacklogSeconds: 5, maxTurnSeconds: 30 },
      send: (event) => sent.push(event),
      close: (code) => closes.push(code),
    });
    session.start();
    expect(session.liveStream).toBe(stream);
    stream.pendingSeconds = 6;
    session.handle(JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(4800).toString('base64') }));
    expect(sent.at(-1)).toMatchObject({ type: 'error', error: { code: 'session_falling_behind' } });
    expect(closes).toEqual([1011]);
    expect(stream.closed).toBe(true);
  });
});
