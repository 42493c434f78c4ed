import type { SegmentFlag, TranscriptWord, VadInterval } from '../../contract/output/transcript-model.ts';
import type { Domain, Efficiency } from '../../contract/validation/prediction-input.ts';
import type { ExternalCallCounter } from '../../platform/metrics/count-external-call.ts';
import type { LiveRecognitionStream, LiveStreamRequest } from './live-recognition-stream.ts';

/** What the pipeline asks an engine to recognise. */
export interface RecognitionRequest {
  /** Path of a 16 kHz mono signed 16-bit little-endian WAV file (made by pipeline/decode/decode-to-pcm.ts). */
  wavPath: string;
  /** Length of the audio in seconds. */
  durationSeconds: number;
  /** Speech intervals found by voice-activity detection, in seconds; engines recognise only inside them. */
  speech: VadInterval[];
  /** Language code from the spec 2.5 table, or null to let the engine decide / detect. */
  language: string | null;
  /** Free-text hint (spec 2.2 `prompt`), or null. */
  prompt: string | null;
  /** Keywords to boost (spec 2.2 `hotwords`, already split at commas and trimmed). */
  hotwords: string[];
  /** Spec 2.2 `efficiency`: engines map it to model size / beam width (docs/recognition.md). */
  efficiency?: Efficiency | null;
  /**
   * The audio is one turn of a live session cut tightly around its speech by the server VAD
   * (recognizeTurn): engines that learn the background from the start of each utterance should not
   * (PocketSphinx turns its noise removal off). Absent: a recording.
   */
  tightCut?: boolean;
  /** Spec 2.2 `domain`: engines may use it as a hint (docs/recognition.md). */
  domain?: Domain | null;
  /**
   * Spec 2.2 `multilingual` (null and absent mean false): with `language` null, the engine finds the
   * language of each utterance and tags every segment with it, instead of one language for the
   * recording (docs/recognition.md, "multilingual"). Only sent to engines with `identifiesLanguages`.
   */
  multilingual?: boolean;
  /**
   * `translate`: English text of the speech, whatever its language (Whisper's translate task).
   * Only sent to engines with `translates`. Absent or `transcribe`: the words as spoken.
   */
  task?: 'transcribe' | 'translate';
  /** Aborts recognition (e.g. on shutdown or cancel). */
  signal?: AbortSignal;
  /** Called with the recognised fraction 0..1 as the engine progresses. */
  onProgress?: (fraction: number) => void;
  /**
   * Called once per planned utterance as soon as the engine has decoded it, with its segments
   * (possibly none), in the order the engine finishes them (parallel decoders finish out of order;
   * `index` orders them). Lets a caller show text while the rest is still being decoded (the
   * OpenAI endpoint's `stream=true`, docs/live.md). Engines that cannot report early leave it uncalled.
   */
  onUtterance?: (done: DecodedUtterance) => void;
  /** Where engines that call an outside service count each attempt (`ctx.metrics`); absent: not counted. */
  metrics?: ExternalCallCounter;
}

/** One planned utterance of an engine once decoded (RecognitionRequest.onUtterance). */
export interface DecodedUtterance {
  /** Its place among the engine's `count` utterances of this request, 0-based. */
  index: number;
  count: number;
  /** Its segments, times in seconds from the start of the recording, as `recognize` returns them. */
  segments: RecognizedSegment[];
}

/** One piece of recognised speech, times in seconds from the start of the recording. */
export interface RecognizedSegment {
  start: number;
  end: number;
  text: string;
  words: TranscriptWord[];
  /** Language code when the engine knows it, else null. */
  language: string | null;
  /**
   * Mean natural-log probability of the segment's tokens (or words) as the engine scored them
   * (Whisper's `avg_logprob`); null or absent when the engine gives no scores. Never a placeholder.
   */
  avgLogprob?: number | null;
  /** Doubts the pipeline found before its later steps changed the words (`repetition`); engines leave it absent. */
  flags?: SegmentFlag[];
}

/** Which spec 2.2 hints an engine hands to its model for a request (docs/recognition.md). */
export interface NativeHints {
  /** The model reads `prompt` itself (e.g. Whisper's prompt on an OpenAI-compatible server). */
  prompt: boolean;
  /** The model is biased towards `hotwords` itself (e.g. sherpa-onnx transducers, Whisper's prompt). */
  hotwords: boolean;
}

/** A speech recognition engine. Implementations live beside this file. */
export interface RecognitionEngine {
  /** Short stable name, e.g. `pocketsphinx`. */
  readonly name: string;
  /** Language codes (spec 2.5) the engine can recognise; 'any' when it takes all of them. */
  readonly languages: readonly string[] | 'any';
  /** Language used when the request leaves `language` null and the engine cannot detect. */
  readonly defaultLanguage: string;
  /**
   * This engine's own `low_logprob` limit (natural log), for an engine whose `avgLogprob` is on
   * another scale than Whisper's token log-probabilities, with the measurement it was chosen from
   * (PocketSphinx: ln 0.5 on calibrated word probabilities, bench/results/confidence.md). Absent:
   * the general limit (FlagThresholds.logprobBelow, Whisper's −1). FLAG_LOGPROB_BELOW, when the
   * operator sets it, overrides both (resolveFlagThresholds).
   */
  readonly lowLogprobLimit?: number;
  /** The engine translates speech into English itself (`task: 'translate'`; sherpa-onnx with multilingual Whisper). */
  readonly translates?: boolean;
  /**
   * Whether the engine can tell languages apart within one recording (spec 2.2 `multilingual`):
   * absent means false, and a request with `multilingual: true` is refused with HTTP 422 before
   * download (contract/validation/recognition-option-schemas.ts).
   */
  readonly identifiesLanguages?: boolean;
  /**
   * A streaming recogniser for one live session (a streaming sherpa-onnx model is installed and
   * recognises `request.language`): its turns' text grows as the audio arrives. Absent, or null for
   * this request: live sessions recognise each turn as a short recording (recognizeTurn).
   */
  openLiveStream?(request: LiveStreamRequest): LiveRecognitionStream | null;
  /**
   * Which hints this engine uses natively for `request` (it may depend on the model the request
   * picks). Absent means none. After recognition, transcribe-recording.ts applies spelling hints
   * (apply-spelling-hints.ts) from `hotwords` always and from `prompt` only when `prompt` is false.
   */
  nativeHints?(request: Pick<RecognitionRequest, 'language' | 'efficiency' | 'multilingual'>): NativeHints;
  /**
   * Recognises the speech intervals of `request.wavPath`.
   * @throws AppError `recognition_failed` when the engine fails, `engine_unavailable` when it cannot run.
   */
  recognize(request: RecognitionRequest): Promise<RecognizedSegment[]>;
  /**
   * Opens a session for many short requests in a row, one at a time (the pieces of a live session's
   * turns, docs/live.md): it may keep its model loaded between them (PocketSphinx keeps one warm
   * `pocketsphinx_batch` process). Absent: the caller sends each request to `recognize`.
   */
  openSession?(): RecognitionSession;
}

/** Recognition kept open for a run of short requests (RecognitionEngine.openSession). */
export interface RecognitionSession {
  /**
   * As RecognitionEngine.recognize, for one request at a time (calls must not overlap). Requests the
   * session cannot serve warm go to the engine's `recognize`.
   */
  recognize(request: RecognitionRequest): Promise<RecognizedSegment[]>;
  /** Ends what the session keeps running (processes, files); a call in progress rejects. Safe to call twice. */
  close(): Promise<void>;
}
