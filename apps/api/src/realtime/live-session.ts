import { randomBytes } from 'node:crypto';
import {
  AppError,
  createLiveVad,
  createStreamResampler,
  decodeLiveAudio,
  LIVE_FORMAT_RATE,
  recognizeTurn,
  type LiveVad,
  type LivePieceSettings,
  type LiveVadEvent,
  type RecognitionEngine,
  type RecognitionSession,
  type SileroModel,
  type StreamResampler,
} from '@transcribe/core';
import {
  betaSessionObject,
  DEFAULT_SESSION,
  gaSessionObject,
  readSessionUpdate,
  UnsupportedField,
  type LiveSessionSettings,
} from './read-session-update.ts';
import { LiveStreamTurns } from './live-stream-turns.ts';

/** OpenAI's limit on one `input_audio_buffer.append` ("up to a maximum of 15 MiB", API reference). */
export const MAX_APPEND_BYTES = 15 * 1024 * 1024;
const RATE = 16_000;

/** The limits of one session (env LIVE_*, docs/live.md). */
export interface LiveSessionLimits {
  /** Seconds of turns waiting for or in recognition, plus audio waiting for the VAD, past which the session is closed. */
  maxBacklogSeconds: number;
  /** Longest turn, seconds: a turn that grows past it is committed (server VAD) or refused at commit (manual). */
  maxTurnSeconds: number;
}

/** What a session needs from the service. */
export interface LiveSessionDeps {
  engine: RecognitionEngine;
  /** Silero VAD, loaded once (loadSileroModel); null until the first session with server VAD needs it. */
  vadModel: () => Promise<SileroModel>;
  limits: LiveSessionLimits;
  /** Sends one server event (JSON-serialisable). */
  send: (event: Record<string, unknown>) => void;
  /** Ends the connection after a fatal error event (falling behind). */
  close: (code: number, reason: string) => void;
  /** Called when a turn finished recognition: its seconds of audio and the seconds from its end (speech_stopped or commit) to `completed`. */
  onTurnDone?: (audioSeconds: number, latencySeconds: number) => void;
}

type Json = Record<string, unknown>;

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

/**
 * Where the server VAD cuts a turn into pieces decoded while the speaker goes on (create-live-vad.ts
 * LivePieceSettings; docs/live.md, "Pieces"): at a 200 ms pause, or, in a piece 3 s long without one,
 * at its least speech-like window; never into pieces under 1.5 s. Chosen on bench/live.ts's clip and
 * checked on a held-out one (bench/results/live.md, live-heldout.md; PocketSphinx, 2026-11-29): pauses
 * alone scored WER 0.241 / 0.280 (held-out) but leave a turn without pauses as one piece; pieces of
 * 1–2 s scored 0.569 (too little context for the language model); 1.5–3 s scored 0.397 / 0.360, within
 * 0.05 of the clips as files (0.397 / 0.347). At ~0.55× real time the last piece (≤ 3 s) is decoded
 * within ~1.6 s of its cut, 300 ms of which pass before `speech_stopped` when the turn ends in silence.
 */
export const PIECES: LivePieceSettings = { pauseMs: 200, minMs: 1500, maxMs: 3000 };
/** After the last piece, a rest of the turn shorter than this (seconds) is not decoded (at most a window of speech the VAD heard after the cut). */
const MIN_TAIL_SECONDS = 0.1;

/** A turn from its speech_started until its completion. */
interface OpenTurn {
  item: string;
  /** Session-clock samples: where the turn's audio starts, and where its next piece starts. */
  from: number;
  cut: number;
  /** Pieces queued for recognition. */
  pieces: number;
  /** The text of each decoded piece with words, in order. */
  texts: string[];
  /** The first piece that failed (the turn then fails). */
  error: unknown;
  /** Cleared (`input_audio_buffer.clear`): nothing more is sent for it. */
  dropped: boolean;
}

/**
 * One OpenAI-Realtime transcription session (docs/live.md; OpenAI Realtime API reference, client and
 * server events of transcription sessions): reads the client's events, keeps the input audio buffer
 * (16 kHz after resampling), finds turns with the server VAD (Silero, create-live-vad.ts) or ends them
 * at the client's commit, and recognises them with the configured engine (recognize-turn.ts), in
 * order, one piece at a time. With the server VAD a turn is cut into pieces at its short pauses or
 * its gaps between words (PIECES) and each piece is decoded while the speaker
 * goes on, through a recognition session the engine may keep warm (RecognitionEngine.openSession):
 * one `…transcription.delta` per piece with words, then `…completed` with the whole text, or `…failed`.
 * A client's commit without turn detection is one piece, decoded as a file is. On a streaming model
 * (RecognitionEngine.openLiveStream; live-stream-turns.ts) a turn is not cut: its audio goes to the
 * stream from speech_started, a delta per growth of the partial text, and its end gives `completed`.
 * A client error is an `error` event and the session goes on; falling behind (more than
 * `maxBacklogSeconds` of audio waiting) is an `error` event and the end of the session.
 */
export class LiveSession {
  readonly id = newId('sess');
  private settings: LiveSessionSettings = { ...DEFAULT_SESSION };
  private resampler: StreamResampler = createStreamResampler(LIVE_FORMAT_RATE['audio/pcm'], RATE);
  private vad: LiveVad | null = null;
  /** 16 kHz audio of the input buffer, from sample `bufferStart` (session clock) on. */
  private chunks: Float32Array[] = [];
  private bufferStart = 0;
  private bufferEnd = 0;
  /** The turn the server VAD is hearing (speech_started without its speech_stopped yet). */
  private turn: OpenTurn | null = null;
  /** The engine's session for the VAD's pieces, opened at the first speech; closed by `stop`. */
  private recognition: RecognitionSession | null = null;
  private previousItem: string | null = null;
  /** Audio given to the VAD and not scored yet, samples. */
  private vadPending = 0;
  private vadChain: Promise<void> = Promise.resolve();
  private decodeChain: Promise<void> = Promise.resolve();
  /** Seconds of cut pieces and committed turns not yet recognised. */
  private decodePending = 0;
  private closed = false;
  private readonly abort = new AbortController();
  /** The turns on a streaming model (engine.openLiveStream), or null: each turn is recognised as a recording. */
  private streamed: LiveStreamTurns | null = null;
  /** Seconds of audio received, for the charge. */
  audioSeconds = 0;
  /** The recognised turns, seconds on the session clock (recorded when the session ends). */
  readonly turns: { start: number; end: number; text: string }[] = [];
  /** The session's language setting, for the record. */
  get language(): string | null {
    return this.settings.language;
  }

  constructor(private readonly deps: LiveSessionDeps) {}

  /** Sends `session.created` (the first event of the connection). */
  start(): void {
    this.emit({ type: 'session.created', session: gaSessionObject(this.id, this.settings) });
    this.openStream();
  }

  /** Opens the engine's live stream for the session's language (its model loads before speech comes), or none. */
  private openStream(): void {
    this.streamed?.close();
    const stream = this.deps.engine.openLiveStream?.({ language: this.settings.language }) ?? null;
    this.streamed = stream
      ? new LiveStreamTurns(
          stream,
          (from, to) => this.slice(from, to),
          (item, delta) => this.emit({ type: 'conversation.item.input_audio_transcription.delta', item_id: item, content_index: 0, delta }),
        )
      : null;
  }

  /** Whether turns are waiting for or in recognition. */
  get busy(): boolean {
    return this.decodePending > 1e-6;
  }

  /** Stops recognition in progress (the connection closed). */
  stop(): void {
    this.closed = true;
    this.abort.abort(new Error('The session ended.'));
    this.streamed?.close();
    void this.closeRecognition();
  }

  /** The live stream of a streaming model, when the session has one (tests, metrics). */
  get liveStream() {
    return this.streamed?.stream ?? null;
  }

  /** Ends the engine's session (a warm process), once; `settled` waits for it too. */
  private closing: Promise<void> = Promise.resolve();
  private closeRecognition(): Promise<void> {
    const recognition = this.recognition;
    this.recognition = null;
    if (recognition) this.closing = recognition.close().catch(() => {});
    return this.closing;
  }

  /** Waits for the turns in recognition (for tests and a clean close). */
  async settled(): Promise<void> {
    await this.vadChain;
    await this.decodeChain;
    await this.closing;
  }

  /** Handles one client message (text frame). */
  handle(text: string): void {
    let event: Json;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      event = parsed as Json;
    } catch {
      return this.error('invalid_json', 'The message is not a JSON object.', null);
    }
    const clientEventId = typeof event.event_id === 'string' ? event.event_id : null;
    try {
      switch (event.type) {
        case 'session.update':
        case 'transcription_session.update':
          return this.update(event, event.type === 'session.update' ? 'ga' : 'beta');
        case 'input_audio_buffer.append':
          return this.append(event);
        case 'input_audio_buffer.commit':
          return this.commitByClient();
        case 'input_audio_buffer.clear':
          return this.clear();
        default:
          return this.error(
            'unsupported_event',
            `The event type "${String(event.type).slice(0, 60)}" is not supported in a transcription session.`,
            'type',
            clientEventId,
          );
      }
    } catch (error) {
      if (error instanceof UnsupportedField) return this.error('unsupported_field', error.message, error.param, clientEventId);
      if (error instanceof AppError) return this.error(error.code, error.message, error.param ?? null, clientEventId);
      throw error;
    }
  }

  private update(event: Json, generation: 'ga' | 'beta'): void {
    const next = readSessionUpdate(event, generation, this.settings, this.deps.engine.languages);
    if (next.format !== this.settings.format) this.resampler = createStreamResampler(LIVE_FORMAT_RATE[next.format], RATE);
    const vadChanged = JSON.stringify(next.turnDetection) !== JSON.stringify(this.settings.turnDetection);
    const languageChanged = next.language !== this.settings.language;
    this.settings = next;
    const streamCovers = this.streamed !== null && (next.language === null || this.streamed.stream.languages.includes(next.language));
    if (languageChanged && this.deps.engine.openLiveStream && !this.closed && !streamCovers) this.openStream();
    if (vadChanged) this.vad = null; // made again with the new settings at the next append
    if (generation === 'ga') this.emit({ type: 'session.updated', session: gaSessionObject(this.id, next) });
    else this.emit({ type: 'transcription_session.updated', session: betaSessionObject(this.id, next) });
  }

  private append(event: Json): void {
    if (typeof event.audio !== 'string') throw new AppError('invalid_input', 'audio must be a base64 string.', { param: 'audio' });
    if ((event.audio.length * 3) / 4 > MAX_APPEND_BYTES + 3) {
      throw new AppError('invalid_input', `One append carries at most 15 MiB of audio (as on OpenAI); send it in smaller pieces.`, {
        param: 'audio',
      });
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(event.audio)) throw new AppError('invalid_input', 'audio is not valid base64.', { param: 'audio' });
    this.take(this.resampler.push(decodeLiveAudio(Buffer.from(event.audio, 'base64'), this.settings.format)));
  }

  /** Adds 16 kHz samples to the input buffer (and to the VAD's queue with turn detection on). */
  private take(samples: Float32Array): void {
    if (samples.length === 0) return;
    this.audioSeconds += samples.length / RATE;
    this.chunks.push(samples);
    this.bufferEnd += samples.length;
    if (this.settings.turnDetection === null) {
      if ((this.bufferEnd - this.bufferStart) / RATE > this.deps.limits.maxBacklogSeconds + this.deps.limits.maxTurnSeconds) {
        return this.fallBehind('the input audio buffer is longer than the session may keep without a commit');
      }
      return;
    }
    this.vadPending += samples.length;
    if (this.vadPending / RATE + this.decodePending + (this.streamed?.pendingSeconds ?? 0) > this.deps.limits.maxBacklogSeconds) {
      return this.fallBehind('voice-activity detection and recognition are behind the incoming audio');
    }
    this.vadChain = this.vadChain.then(() => this.scoreSpeech(samples)).catch((error: unknown) => this.vadFailed(error));
  }

  private async scoreSpeech(samples: Float32Array): Promise<void> {
    if (this.closed || this.settings.turnDetection === null) return;
    if (!this.vad) this.vad = createLiveVad(await this.deps.vadModel(), { ...this.settings.turnDetection, pieces: PIECES });
    const offset = this.vad.samples; // the VAD's clock: samples it was given since it was made
    const clockShift = this.bufferEnd - this.vadPending - offset; // session clock = VAD clock + shift
    const events = await this.vad.push(samples);
    this.vadPending -= samples.length;
    for (const event of events) this.onSpeech(event, clockShift);
    this.streamed?.feed(this.bufferEnd - this.vadPending); // the open turn's audio, as far as the VAD has heard
    const turn = this.turn;
    if (turn && (this.bufferEnd - this.vadPending - turn.from) / RATE > this.deps.limits.maxTurnSeconds) {
      this.vad.reset(); // a turn longer than the longest: cut here, the speech goes on in a new turn
      this.turn = null;
      const end = this.bufferEnd - this.vadPending;
      this.emit({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: toMs(end), item_id: turn.item });
      this.commit(turn, end, true);
    }
  }

  private onSpeech(event: LiveVadEvent, shift: number): void {
    if (event.type === 'speech_started') {
      const turn = (this.turn = newTurn(Math.max(this.bufferStart, event.from + shift)));
      if (this.streamed?.stream.failed) this.openStream(); // its child died or did not load: a new one for this turn
      if (this.streamed)
        this.streamed.begin(turn.item, turn.from); // a streaming model hears the turn as it comes
      else this.recognition ??= this.deps.engine.openSession?.() ?? null;
      this.emit({ type: 'input_audio_buffer.speech_started', audio_start_ms: toMs(event.at + shift), item_id: turn.item });
      return;
    }
    if (event.type === 'speech_paused') {
      const turn = this.turn;
      const cut = Math.min(this.bufferEnd, event.cut + shift);
      if (!turn || cut <= turn.cut || this.streamed?.streaming(turn.item)) return; // a streamed turn is decoded as it comes
      this.decodePiece(turn, turn.cut, cut, true);
      turn.cut = cut;
      this.dropBefore(cut);
      return;
    }
    const turn = this.turn ?? newTurn(Math.max(this.bufferStart, event.from + shift));
    this.turn = null;
    const end = Math.min(this.bufferEnd, event.end + shift);
    this.emit({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: toMs(end), item_id: turn.item });
    this.commit(turn, end, true);
  }

  private commitByClient(): void {
    this.take(this.resampler.flush()); // the last few ms the resampler held back for its look-ahead
    if (this.closed) return;
    if (this.bufferEnd === this.bufferStart) {
      throw new AppError('invalid_input', 'The input audio buffer is empty: append audio before committing it.', { param: 'type' });
    }
    // a VAD turn already cut into pieces goes on from its last cut; otherwise the whole buffer is the turn
    const open = this.turn && this.turn.pieces > 0 ? this.turn : null;
    const start = open ? open.from : this.bufferStart;
    if ((this.bufferEnd - start) / RATE > this.deps.limits.maxTurnSeconds) {
      const seconds = ((this.bufferEnd - start) / RATE).toFixed(1);
      this.dropBefore(this.bufferEnd);
      if (this.turn) this.turn.dropped = true;
      this.turn = null;
      throw new AppError(
        'invalid_input',
        `The buffer holds ${seconds} s; one turn may be at most ${this.deps.limits.maxTurnSeconds} s here. It was cleared; commit shorter turns.`,
        { param: 'type' },
      );
    }
    const turn = open ?? { ...newTurn(this.bufferStart), item: this.turn?.item ?? newId('item') };
    this.turn = null;
    this.vad?.reset();
    this.commit(turn, this.bufferEnd, open !== null);
  }

  private clear(): void {
    this.resampler = createStreamResampler(LIVE_FORMAT_RATE[this.settings.format], RATE); // drops what it held back too
    this.dropBefore(this.bufferEnd);
    if (this.turn) this.turn.dropped = true; // its pieces in recognition are not reported
    this.turn = null;
    this.vad?.reset();
    this.streamed?.drop();
    this.emit({ type: 'input_audio_buffer.cleared' });
  }

  /**
   * Commits `turn` ending at `to` (session clock): decodes the rest of it after its last piece (any rest
   * for a turn without pieces) and queues its completion after its pieces. `cutByVad`: the server VAD
   * cut the audio tightly around its speech (recognizeTurn's `cutByVad`), not the client's commit.
   */
  private commit(turn: OpenTurn, to: number, cutByVad: boolean): void {
    // A streamed turn ends now (its last audio and the end go to the stream before any next turn begins).
    const ending = this.streamed?.streaming(turn.item) ? this.streamed.end(turn.item, to) : null;
    ending?.catch(() => {}); // awaited in turn below
    if (!ending && (turn.pieces === 0 || (to - turn.cut) / RATE >= MIN_TAIL_SECONDS))
      this.decodePiece(turn, turn.cut, Math.max(turn.cut, to), cutByVad);
    this.dropBefore(to);
    this.emit({ type: 'input_audio_buffer.committed', item_id: turn.item, previous_item_id: this.previousItem });
    this.previousItem = turn.item;
    const seconds = Math.max(0, to - turn.from) / RATE;
    const endedAt = performance.now();
    this.decodeChain = this.decodeChain.then(async () => {
      if (this.closed || turn.dropped) return;
      if (ending) {
        try {
          const streamed = await ending; // the deltas went out as the text grew; the rest comes now
          if (this.closed || turn.dropped) return;
          if (streamed.rest !== '')
            this.emit({
              type: 'conversation.item.input_audio_transcription.delta',
              item_id: turn.item,
              content_index: 0,
              delta: streamed.rest,
            });
          turn.texts = streamed.transcript === '' ? [] : [streamed.transcript];
        } catch (error) {
          turn.error ??= error;
        }
      }
      if (turn.error !== undefined) {
        const known = turn.error instanceof AppError ? turn.error : null;
        this.emit({
          type: 'conversation.item.input_audio_transcription.failed',
          item_id: turn.item,
          content_index: 0,
          error: { type: 'server_error', code: known?.code ?? 'internal', message: known?.message ?? 'Recognition failed.', param: null },
        });
        return;
      }
      const transcript = turn.texts.join(' ');
      this.emit({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: turn.item,
        content_index: 0,
        transcript,
        usage: { type: 'duration', seconds: Math.round(seconds * 1000) / 1000 },
      });
      this.turns.push({ start: turn.from / RATE, end: to / RATE, text: transcript });
      this.deps.onTurnDone?.(seconds, (performance.now() - endedAt) / 1000);
    });
  }

  /**
   * Queues the recognition of [from, to) of the session clock as the next piece of `turn`, and sends its
   * text as a delta once decoded (nothing for a piece without words). A failed piece fails the turn;
   * the pieces after it in the turn are skipped.
   */
  private decodePiece(turn: OpenTurn, from: number, to: number, cutByVad: boolean): void {
    const samples = this.slice(from, to);
    const seconds = samples.length / RATE;
    turn.pieces++;
    this.decodePending += seconds;
    const settings = this.settings;
    this.decodeChain = this.decodeChain.then(async () => {
      try {
        if (this.closed || turn.dropped || turn.error !== undefined) return;
        const text = await recognizeTurn(cutByVad && this.recognition ? this.recognition : this.deps.engine, {
          samples,
          cutByVad,
          language: settings.language,
          prompt: settings.prompt,
          signal: this.abort.signal,
        });
        if (this.closed || turn.dropped || text === '') return;
        this.emit({
          type: 'conversation.item.input_audio_transcription.delta',
          item_id: turn.item,
          content_index: 0,
          delta: turn.texts.length > 0 ? ` ${text}` : text,
        });
        turn.texts.push(text);
      } catch (error) {
        turn.error ??= error;
      } finally {
        this.decodePending -= seconds;
      }
    });
  }

  private slice(from: number, to: number): Float32Array {
    const out = new Float32Array(Math.max(0, to - from));
    let at = this.bufferStart;
    for (const chunk of this.chunks) {
      const lo = Math.max(from, at);
      const hi = Math.min(to, at + chunk.length);
      if (hi > lo) out.set(chunk.subarray(lo - at, hi - at), lo - from);
      at += chunk.length;
    }
    return out;
  }

  private dropBefore(position: number): void {
    while (this.chunks.length > 0 && this.bufferStart + this.chunks[0]!.length <= position) this.bufferStart += this.chunks.shift()!.length;
    const first = this.chunks[0];
    if (first && position > this.bufferStart) {
      this.chunks[0] = first.subarray(position - this.bufferStart);
      this.bufferStart = position;
    }
    if (this.chunks.length === 0) this.bufferStart = Math.max(this.bufferStart, position);
  }

  private fallBehind(why: string): void {
    if (this.closed) return;
    this.error('session_falling_behind', `The session is closed: ${why} (more than ${this.deps.limits.maxBacklogSeconds} s).`, null);
    this.stop();
    this.deps.close(1011, 'falling behind');
  }

  private vadFailed(error: unknown): void {
    if (this.closed) return;
    this.error('server_error', `Voice-activity detection failed: ${(error as Error).message}`, null);
    this.stop();
    this.deps.close(1011, 'vad failed');
  }

  /** Sends an `error` event (OpenAI's shape: `error {type, code, message, param, event_id}`). */
  error(code: string, message: string, param: string | null, clientEventId: string | null = null): void {
    const type = code === 'server_error' || code === 'session_falling_behind' ? 'server_error' : 'invalid_request_error';
    this.emit({ type: 'error', error: { type, code, message, param, event_id: clientEventId } });
  }

  private emit(event: Json): void {
    if (this.closed && event.type !== 'error') return;
    this.deps.send({ event_id: newId('event'), ...event });
  }
}

function newTurn(from: number): OpenTurn {
  return { item: newId('item'), from, cut: from, pieces: 0, texts: [], error: undefined, dropped: false };
}

function toMs(samples: number): number {
  return Math.round((samples / RATE) * 1000);
}
