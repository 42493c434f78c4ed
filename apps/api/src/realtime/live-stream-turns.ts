import type { LiveRecognitionStream } from '@transcribe/core';

/** Reads [from, to) of the session's input buffer (session clock, 16 kHz samples). */
export type ReadBuffer = (from: number, to: number) => Float32Array;

/**
 * The turns of one live session on a streaming model (docs/live.md, "Streaming models"): a turn
 * starts at the server VAD's `speech_started` (its audio from the start less `prefix_padding_ms`),
 * its audio goes to the stream as the VAD has scored it, and every growth of the recogniser's text is
 * a delta; the turn ends at `speech_stopped` (or the cut of a too-long turn) with its final text.
 * The stream's child process is opened with the session and closed with it.
 */
export class LiveStreamTurns {
  /** The open turn's item and how far (session clock) its audio was fed, or null between turns. */
  private turn: { item: string; fed: number; seen: string; delivered: string } | null = null;

  constructor(
    readonly stream: LiveRecognitionStream,
    private readonly read: ReadBuffer,
    /** Sends a delta of `item` (text appended to what was sent before). */
    private readonly delta: (item: string, text: string) => void,
  ) {}

  /** Whether a turn is open (its audio is being streamed). */
  streaming(item: string): boolean {
    return this.turn?.item === item;
  }

  /** Seconds of audio given to the stream and not decoded yet (part of the session's backlog). */
  get pendingSeconds(): number {
    return this.stream.pendingSeconds;
  }

  /** Starts turn `item` at `from` (session clock); a turn still open is dropped. */
  begin(item: string, from: number): void {
    if (this.turn) this.stream.dropTurn();
    // seen: the recogniser's last partial text; delivered: the deltas sent, joined.
    const turn = { item, fed: from, seen: '', delivered: '' };
    this.turn = turn;
    this.stream.beginTurn((text) => {
      // Greedy CTC and transducer text only grows; a partial that does not extend the last waits for the final text.
      if (this.turn !== turn || !text.startsWith(turn.seen)) return;
      let piece = text.slice(turn.seen.length);
      if (turn.delivered === '') piece = piece.trimStart();
      if (piece === '') return;
      turn.seen = text;
      turn.delivered += piece;
      this.delta(item, piece);
    });
  }

  /** Feeds the open turn its audio up to `to` (session clock: the end of what the VAD has scored). */
  feed(to: number): void {
    const turn = this.turn;
    if (!turn || to <= turn.fed) return;
    this.stream.push(this.read(turn.fed, to));
    turn.fed = to;
  }

  /**
   * Ends turn `item` at `to`: feeds what is left and waits for the final text.
   * @returns the transcript and the last delta (the final text past the deltas sent, '' when none).
   * @throws what LiveRecognitionStream.endTurn throws.
   */
  async end(item: string, to: number): Promise<{ transcript: string; rest: string }> {
    const turn = this.turn;
    if (!turn || turn.item !== item) throw new Error(`turn ${item} is not streaming`);
    this.feed(to);
    this.turn = null;
    const sent = turn.delivered;
    const transcript = await this.stream.endTurn();
    if (transcript.startsWith(sent)) return { transcript, rest: transcript.slice(sent.length) };
    return { transcript, rest: '' }; // the final text took back part of a partial one: `completed` has the whole
  }

  /** Drops the open turn (`input_audio_buffer.clear`). */
  drop(): void {
    if (!this.turn) return;
    this.turn = null;
    this.stream.dropTurn();
  }

  /** Ends the stream's process. */
  close(): void {
    this.turn = null;
    this.stream.close();
  }
}
