/**
 * The parts of sherpa-onnx-node (1.13.x, CommonJS, ships no TypeScript types) that this service
 * uses. Source: node_modules/sherpa-onnx-node/{types.js,vad.js,non-streaming-asr.js}.
 * Durations are in seconds, sample indices and counts in samples.
 */
declare module 'sherpa-onnx-node' {
  export interface SileroVadModelConfig {
    /** Path of silero_vad.onnx. A wrong path makes the Vad silently find nothing: check it first. */
    model: string;
    /** Speech probability threshold 0..1. */
    threshold?: number;
    minSilenceDuration?: number;
    minSpeechDuration?: number;
    /** Samples per window; 512 at 16 kHz. Feed acceptWaveform exactly this many samples per call. */
    windowSize?: number;
    maxSpeechDuration?: number;
  }

  export interface VadConfig {
    sileroVad: SileroVadModelConfig;
    sampleRate?: number;
    numThreads?: number;
    provider?: string;
    debug?: boolean | number;
  }

  /** One detected speech segment. */
  export interface SpeechSegment {
    /** Index of its first sample in the stream fed so far. */
    start: number;
    samples: Float32Array;
  }

  /** Silero voice-activity detector; all calls are synchronous native calls. */
  export class Vad {
    constructor(config: VadConfig, bufferSizeInSeconds: number);
    acceptWaveform(samples: Float32Array): void;
    isEmpty(): boolean;
    isDetected(): boolean;
    /** The earliest segment; pass false to get a copy that outlives pop(). */
    front(enableExternalBuffer?: boolean): SpeechSegment;
    pop(): void;
    clear(): void;
    reset(): void;
    /** Ends the stream: the speech still open becomes a segment. */
    flush(): void;
  }

  /** Basics of the offline (non-streaming) recogniser config; extend when an engine uses it. */
  export interface OfflineRecognizerConfig {
    featConfig?: { sampleRate?: number; featureDim?: number };
    modelConfig: {
      whisper?: { encoder: string; decoder: string; language?: string; task?: string; tailPaddings?: number };
      tokens: string;
      numThreads?: number;
      provider?: string;
      debug?: boolean | number;
    };
    decodingMethod?: string;
    hotwordsFile?: string;
    hotwordsScore?: number;
  }

  export interface OfflineRecognizerResult {
    text: string;
    tokens: string[];
    timestamps: number[];
    lang?: string;
  }

  export interface OfflineStream {
    acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  }

  export class OfflineRecognizer {
    constructor(config: OfflineRecognizerConfig);
    createStream(): OfflineStream;
    decode(stream: OfflineStream): void;
    getResult(stream: OfflineStream): OfflineRecognizerResult;
  }
}
