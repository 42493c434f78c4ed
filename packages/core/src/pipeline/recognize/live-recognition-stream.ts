/**
 * A streaming recogniser held open for one live session (RecognitionEngine.openLiveStream): the
 * session feeds each turn's 16 kHz audio as it arrives and gets the turn's text as it grows
 * (docs/live.md, "Streaming models"). One turn at a time; calls never block the event loop (the
 * decoding runs in a child process).
 */
export interface LiveRecognitionStream {
  /** The catalog name of the streaming model. */
  readonly model: string;
  /** The spec 2.5 codes the model recognises. */
  readonly languages: readonly string[];
  /** Process id of the decoding child, or null before it started (tests check it is gone after `close`). */
  readonly pid: number | null;
  /**
   * Starts a turn. `onText` gets the turn's whole text so far each time it changes (as the
   * recogniser's partial result grows), never after `endTurn` or `dropTurn`.
   */
  beginTurn(onText: (text: string) => void): void;
  /** Feeds the current turn 16 kHz mono samples in [-1, 1]; ignored without a turn. */
  push(samples: Float32Array): void;
  /**
   * Ends the current turn (silence is fed after it, so its last chunk is decoded).
   * @returns the turn's final text ('' when nothing was recognised).
   * @throws AppError `recognition_failed` or `engine_unavailable` when the child failed or died,
   *   naming the model and sherpa-onnx's reason.
   */
  endTurn(): Promise<string>;
  /** Forgets the current turn (`input_audio_buffer.clear`): no more text for it. */
  dropTurn(): void;
  /** True once the child failed (the model did not load, the child died) or the stream was closed: every later turn fails. */
  readonly failed: boolean;
  /** Seconds of audio pushed and not yet decoded (what the session counts as its backlog). */
  readonly pendingSeconds: number;
  /** Ends the child (SIGKILL): turns in progress reject. Safe to call twice. */
  close(): void;
  /** Settles once the child has exited (or at once when it never started). */
  readonly exited: Promise<void>;
}

/** What a live session asks a streaming engine for. */
export interface LiveStreamRequest {
  /** The session's language (spec 2.5 code), or null for the model's own. */
  language: string | null;
}
