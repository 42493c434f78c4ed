import { AppError } from '../../../../platform/errors/app-error.ts';

/** A word of a remote answer, times in seconds from the start of the chunk. */
export interface RemoteWord {
  start: number;
  end: number;
  /** Trimmed. */
  text: string;
  /** 0..1 when the server gives one (whisper.cpp: per token), else null. */
  probability: number | null;
}

/** A segment of a remote answer, times in seconds from the start of the chunk. */
export interface RemoteSegment {
  start: number;
  end: number;
  /** As sent (Whisper servers start it with a space). */
  text: string;
  /** Mean log-probability of the segment's tokens, when the server gives it. */
  avgLogprob: number | null;
  /** Words nested in the segment (whisper.cpp's server), tokens already joined into words. */
  words: RemoteWord[];
}

/** The parts of a `verbose_json` answer the engine uses. */
export interface RemoteTranscription {
  segments: RemoteSegment[];
  /** Top-level `words` (OpenAI, Groq, speaches with `timestamp_granularities[]=word`). */
  words: RemoteWord[];
  /** Whole text; used when there are no segments. */
  text: string;
  /** As the server says it: `english` (OpenAI, whisper.cpp) or `en` (speaches, vLLM). */
  language: unknown;
}

type Json = Record<string, unknown>;
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const objects = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];

/**
 * Reads a `verbose_json` answer of the OpenAI transcription protocol defensively: segments and words
 * without finite `start`/`end` or text are skipped, both are sorted by start. Nested segment words
 * that mark word starts with a leading space (whisper.cpp sends tokens: ` Amer`, `icans`, `,`) are
 * joined into words (`Americans,`, probability = mean of the tokens'). vLLM's placeholder
 * scores (`avg_logprob` and `compression_ratio` of -1) count as no score.
 * @throws AppError `recognition_failed` when `answer` is not an object with `segments` or `text`.
 */
export function readRemoteTranscription(answer: unknown): RemoteTranscription {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Json;
  if (!Array.isArray(body.segments) && typeof body.text !== 'string') {
    throw new AppError('recognition_failed', 'The speech recognition server sent an answer that is not a verbose_json transcription.');
  }
  const segments = objects(body.segments)
    .filter((s) => isFiniteNumber(s.start) && isFiniteNumber(s.end) && typeof s.text === 'string')
    .map((s) => ({
      start: s.start as number,
      end: s.end as number,
      text: s.text as string,
      avgLogprob: isFiniteNumber(s.avg_logprob) && !hasPlaceholderScores(s) ? s.avg_logprob : null,
      words: joinTokens(readWords(s.words)),
    }))
    .sort((a, b) => a.start - b.start);
  const words = readWords(body.words).map(({ raw: _raw, ...word }) => word);
  return { segments, words, text: typeof body.text === 'string' ? body.text : '', language: body.language };
}

/** vLLM fills `avg_logprob` and `compression_ratio` with -1 when it does not compute them; a real ratio is positive. */
function hasPlaceholderScores(segment: Json): boolean {
  return isFiniteNumber(segment.compression_ratio) && segment.compression_ratio < 0;
}

function readWords(value: unknown): Array<RemoteWord & { raw: string }> {
  return objects(value)
    .filter((w) => isFiniteNumber(w.start) && isFiniteNumber(w.end) && typeof w.word === 'string' && w.word.trim() !== '')
    .map((w) => ({
      start: w.start as number,
      end: w.end as number,
      raw: w.word as string,
      text: (w.word as string).trim(),
      probability: isFiniteNumber(w.probability) ? Math.min(1, Math.max(0, w.probability)) : null,
    }))
    .sort((a, b) => a.start - b.start);
}

/** Joins tokens into words when the list marks word starts with a leading space; else returns it as is. */
function joinTokens(tokens: Array<RemoteWord & { raw: string }>): RemoteWord[] {
  if (!tokens.some((token) => /^\s/u.test(token.raw))) return tokens.map(({ raw: _raw, ...word }) => word);
  const words: Array<RemoteWord & { parts: number[] }> = [];
  for (const token of tokens) {
    const last = words.at(-1);
    if (last && !/^\s/u.test(token.raw)) {
      last.text += token.text;
      last.end = Math.max(last.end, token.end);
      if (token.probability !== null) last.parts.push(token.probability);
    } else {
      words.push({
        start: token.start,
        end: token.end,
        text: token.text,
        probability: null,
        parts: token.probability === null ? [] : [token.probability],
      });
    }
  }
  return words.map(({ parts, ...word }) => ({
    ...word,
    probability: parts.length === 0 ? null : parts.reduce((a, b) => a + b, 0) / parts.length,
  }));
}
