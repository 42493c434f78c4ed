import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
// The random-weight models of the real sherpa-onnx layout (scripts/fixtures/make-sherpa-fixture-models.py).
import { FIXTURE_MODELS_DIR } from '@transcribe/core/testing';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

type Event = Record<string, unknown> & { type: string };
const STREAMING_MODEL = 'sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-80ms-int8';
const STREAM_SCRIPT = 'sherpa-onnx-stream.process.cjs';

/** Pids of this process's children running the live stream script (the service runs in this process). */
function streamChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(STREAM_SCRIPT))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/** Waits (polling, at most `ms`) until `check` holds; returns whether it did. */
async function eventually(check: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  return true;
}

/**
 * The realtime WebSocket on a streaming sherpa-onnx model (the random-weight fixture in the real
 * streaming NeMo CTC layout; its words are nonsense, so behaviour is checked, never text): each turn's
 * text arrives as deltas while the speech goes on, before its `completed`; the server VAD ends turns;
 * the session's decoding child process is gone once the session closes.
 */
describe('the realtime WebSocket on a streaming model (fixture)', () => {
  let t: TestService;
  let pcm24: Buffer;

  beforeAll(async () => {
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'sherpa-onnx',
      MODELS_DIR: FIXTURE_MODELS_DIR,
      SHERPA_MODEL: STREAMING_MODEL,
      MODELS_AUTO_INSTALL: '0',
      LIVE_IDLE_TIMEOUT_SECONDS: '30',
    });
    const run = promisify(execFile);
    pcm24 = (
      await run('ffmpeg', ['-v', 'error', '-i', join(AUDIO_DIR, 'jfk.wav'), '-f', 's16le', '-ac', '1', '-ar', '24000', '-'], {
        encoding: 'buffer',
        maxBuffer: 1 << 24,
      })
    ).stdout as Buffer;
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should send deltas as each turn is spoken, before its completed, whose transcript the deltas add up to; and end the child with the session', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/realtime?intent=transcription`, {
      headers: { authorization: `Bearer ${t.key}` },
    });
    const events: Event[] = [];
    ws.on('message', (data) => events.push(JSON.parse(data.toString()) as Event));
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(
      JSON.stringify({
        type: 'session.update',
        session: { type: 'transcription', audio: { input: { transcription: { language: 'en' } } } },
      }),
    );
    // One streaming child for the session, loaded before any audio.
    expect(await eventually(() => streamChildren().length === 1)).toBe(true);
    const audio = Buffer.concat([pcm24, Buffer.alloc(24_000 * 2 * 2)]); // then 2 s of silence, so the last turn ends
    for (let at = 0; at < audio.length; at += 4800) {
      ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: audio.subarray(at, at + 4800).toString('base64') })); // 100 ms
      await new Promise((wake) => setTimeout(wake, 20));
    }
    const count = (type: string) => events.filter((event) => event.type === type).length;
    expect(
      await eventually(
        () =>
          count('input_audio_buffer.committed') > 0 &&
          count('conversation.item.input_audio_transcription.completed') + count('conversation.item.input_audio_transcription.failed') ===
            count('input_audio_buffer.committed'),
        120_000,
      ),
    ).toBe(true);
    expect(count('conversation.item.input_audio_transcription.failed')).toBe(0);
    const completed = events.filter((event) => event.type === 'conversation.item.input_audio_transcription.completed');
    expect(completed.length).toBeGreaterThanOrEqual(2); // jfk.wav's pauses end turns
    let streamedBeforeStop = 0;
    for (const done of completed) {
      const item = done.item_id;
      const at = (type: string) => events.findIndex((event) => event.type === type && event.item_id === item);
      const deltas = events
        .map((event, index) => ({ event, index }))
        .filter(({ event }) => event.type === 'conversation.item.input_audio_transcription.delta' && event.item_id === item);
      expect(deltas.length).toBeGreaterThan(0);
      // every delta after the turn's speech_started and before its completed; together they are its transcript
      for (const { index } of deltas) {
        expect(index).toBeGreaterThan(at('input_audio_buffer.speech_started'));
        expect(index).toBeLessThan(at('conversation.item.input_audio_transcription.completed'));
      }
      expect(deltas.map(({ event }) => event.delta).join('')).toBe(done.transcript);
      if (deltas.length > 1 && deltas[0]!.index < at('input_audio_buffer.speech_stopped')) streamedBeforeStop++;
    }
    // text came while the speaker was still talking (several deltas before the turn's speech_stopped)
    expect(streamedBeforeStop).toBeGreaterThan(0);
    const pids = streamChildren();
    expect(pids).toHaveLength(1);
    ws.close();
    await closed;
    expect(await eventually(() => streamChildren().length === 0)).toBe(true);
  });

  it('should fail the turn whose decoding child dies, naming why, keep the session open, and decode the next turns on a new child', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/realtime?intent=transcription`, {
      headers: { authorization: `Bearer ${t.key}` },
    });
    const events: Event[] = [];
    let killed: number | null = null;
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString()) as Event;
      events.push(event);
      // The first delta: the child is decoding the first turn; a native crash would end it the same way.
      if (event.type === 'conversation.item.input_audio_transcription.delta' && killed === null) {
        killed = streamChildren()[0]!;
        process.kill(killed, 'SIGKILL');
      }
    });
    let closedBy: number | null = null;
    const closed = new Promise<void>((resolve) =>
      ws.once('close', (code) => {
        closedBy = code;
        resolve();
      }),
    );
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    expect(await eventually(() => streamChildren().length === 1)).toBe(true);
    const audio = Buffer.concat([pcm24, Buffer.alloc(24_000 * 2 * 2)]); // jfk.wav's turns, then 2 s of silence
    for (let at = 0; at < audio.length; at += 4800) {
      ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: audio.subarray(at, at + 4800).toString('base64') }));
      await new Promise((wake) => setTimeout(wake, 100)); // real-time pace: the kill lands inside the first turn
    }
    const count = (type: string) => events.filter((event) => event.type === type).length;
    const done = () =>
      count('conversation.item.input_audio_transcription.completed') + count('conversation.item.input_audio_transcription.failed');
    expect(
      await eventually(() => count('input_audio_buffer.committed') > 0 && done() === count('input_audio_buffer.committed'), 120_000),
    ).toBe(true);
    expect(killed).not.toBeNull();
    const failedAt = events.findIndex((event) => event.type === 'conversation.item.input_audio_transcription.failed');
    expect(failedAt).toBeGreaterThan(-1);
    // the child died while decoding (or, had the kill come first, while loading): either is named
    const error = events[failedAt]!.error as { type: string; code: string; message: string };
    expect(error.type).toBe('server_error');
    if (error.code === 'engine_unavailable')
      expect(error.message).toContain(`sherpa-onnx was killed by SIGKILL while loading model ${STREAMING_MODEL}`);
    else
      expect(error).toMatchObject({
        code: 'recognition_failed',
        message: expect.stringContaining('sherpa-onnx was killed by SIGKILL while decoding'),
      });
    // a later turn was decoded, with its deltas, by a new child
    const later = events.slice(failedAt).filter((event) => event.type === 'conversation.item.input_audio_transcription.completed');
    expect(later.length).toBeGreaterThan(0);
    expect(
      events.some((event) => event.type === 'conversation.item.input_audio_transcription.delta' && event.item_id === later[0]!.item_id),
    ).toBe(true);
    expect(streamChildren()).toHaveLength(1);
    expect(streamChildren()[0]).not.toBe(killed);
    expect(closedBy).toBeNull();
    ws.close();
    await closed;
    expect(await eventually(() => streamChildren().length === 0)).toBe(true);
  });
});
