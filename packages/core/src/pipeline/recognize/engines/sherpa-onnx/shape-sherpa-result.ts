import { findLanguage } from '../../../../contract/spec/languages.ts';
import type { TranscriptWord, VadInterval } from '../../../../contract/output/transcript-model.ts';
import type { RecognizedSegment } from '../../recognition-engine.ts';

/** What the recognition process returns for one utterance (sherpa-onnx OfflineRecognizerResult). */
export interface SherpaUtteranceResult {
  /** The utterance, seconds from the start of the recording. */
  start: number;
  end: number;
  text: string;
  /** Token strings; BPE word starts carry a leading space or `▁`. */
  tokens: string[];
  /** Token start times, seconds from the utterance start; [] when the model gives none. */
  timestamps: number[];
  /** Token durations, seconds, beside `timestamps` (Whisper with token times); absent or [] otherwise. */
  durations?: number[];
  /**
   * Natural-log probability of each token (sherpa-onnx's `ys_log_probs`: transducers fill it, Whisper
   * and the CTC models leave it empty in 1.13.8); absent or [] when the model gives none.
   */
  logProbs?: number[];
  /** Language the model reported (`en`, `<|en|>`), or ''. */
  lang: string;
}

/** Longest a last word is taken to last after its first token, seconds. */
const LAST_WORD_SECONDS = 1;
const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** `<|en|>` / `en` → `en` when it is a spec 2.5 code; else null. */
export function normalizeSherpaLanguage(lang: string): string | null {
  const code = lang.replace(/^<\|/, '').replace(/\|>$/, '').trim().toLowerCase();
  return code === '' ? null : (findLanguage(code)?.code ?? null);
}

/**
 * Words from token times: a token starting with a space or `▁` starts a word, others continue it.
 * Token times are clamped into the utterance and made non-decreasing: Whisper's come from its
 * cross-attention over a window padded to 30 s and can point past the utterance's end. A word ends
 * where the next begins; the last one at its last token's end when the model gives durations
 * (Whisper), else LAST_WORD_SECONDS after its start, never after the utterance.
 */
function wordsFromTokens(result: SherpaUtteranceResult): TranscriptWord[] {
  const words: Array<{ text: string; start: number; end: number; logProbs: number[] }> = [];
  const scores = tokenLogProbs(result);
  const length = Math.max(0, result.end - result.start);
  let previous = 0;
  result.tokens.forEach((token, index) => {
    const startsWord = /^[\s▁]/.test(token) || words.length === 0;
    const text = token.replace(/▁/g, ' ');
    const offset = Math.max(previous, Math.min(length, result.timestamps[index] ?? 0));
    previous = offset;
    const duration = result.durations?.[index];
    const end = result.start + Math.min(length, offset + (duration ?? 0));
    if (startsWord) {
      const fallback = result.start + Math.min(length, offset + LAST_WORD_SECONDS);
      words.push({ text: text.trim(), start: result.start + offset, end: duration === undefined ? fallback : end, logProbs: [] });
    } else {
      const word = words[words.length - 1]!;
      word.text += text.trim();
      if (duration !== undefined) word.end = Math.max(word.end, end);
    }
    const score = scores?.[index];
    if (score !== undefined) words[words.length - 1]!.logProbs.push(score);
  });
  return words
    .filter((word) => word.text !== '')
    .map((word, index, all) => {
      const next = all[index + 1]?.start ?? word.end;
      const confidence = word.logProbs.length === 0 ? null : roundProbability(Math.exp(mean(word.logProbs)));
      return { text: word.text, start: round(word.start), end: round(Math.max(word.start, next)), confidence };
    });
}

/** The result's token log-probabilities when there is one finite value per token, else null. */
function tokenLogProbs(result: SherpaUtteranceResult): number[] | null {
  const scores = result.logProbs ?? [];
  if (scores.length === 0 || scores.length !== result.tokens.length || !scores.every(Number.isFinite)) return null;
  return scores.map((score) => Math.min(0, score));
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const roundProbability = (value: number) => Math.round(value * 10000) / 10000;

/** The parts of `speech` inside [start, end]. */
function speechInside(speech: readonly VadInterval[], start: number, end: number): VadInterval[] {
  const inside = speech
    .map((interval) => ({ start: Math.max(start, interval.start), end: Math.min(end, interval.end) }))
    .filter((interval) => interval.end > interval.start);
  return inside.length > 0 ? inside : [{ start, end }];
}

/**
 * Words without model times (Whisper, Moonshine, Canary): the text's words laid over the speech
 * inside the utterance in proportion to their length in characters, so none falls in a pause.
 */
function spreadWords(text: string, start: number, end: number, speech: readonly VadInterval[]): TranscriptWord[] {
  const parts = text.split(/\s+/).filter((part) => part !== '');
  const intervals = speechInside(speech, start, end);
  const total = intervals.reduce((sum, interval) => sum + interval.end - interval.start, 0);
  const characters = parts.reduce((sum, part) => sum + part.length, 0);
  /** Recording time `offset` seconds into the speech; a start on a boundary goes to the next interval. */
  const at = (offset: number, isStart: boolean) => {
    let left = offset;
    for (const interval of intervals) {
      const length = interval.end - interval.start;
      if (isStart ? left < length : left <= length) return interval.start + left;
      left -= length;
    }
    return intervals.at(-1)!.end;
  };
  let done = 0;
  return parts.map((part) => {
    const start = at((done / characters) * total, true);
    done += part.length;
    return { text: part, start: round(start), end: round(at((done / characters) * total, false)), confidence: null };
  });
}

/**
 * One RecognizedSegment per utterance with text; word times from the model's token times when it
 * gives them (transducers, SenseVoice, Whisper with `enableTokenTimestamps: 1`), else spread over the
 * speech. With token log-probabilities (`logProbs`, one per token): `avgLogprob` is their mean (as
 * Whisper's avg_logprob is the mean over its sampled tokens) and each word's `confidence` is exp of
 * the mean over its tokens (the geometric mean of their probabilities); without them both are null.
 * @param language the requested language, or null to take the model's report.
 */
export function shapeSherpaResults(
  results: readonly SherpaUtteranceResult[],
  speech: readonly VadInterval[],
  language: string | null,
): RecognizedSegment[] {
  const segments: RecognizedSegment[] = [];
  for (const result of results) {
    const text = result.text.trim();
    if (text === '') continue;
    const timed = result.timestamps.length > 0 && result.timestamps.length === result.tokens.length;
    const scores = tokenLogProbs(result);
    const words = timed ? wordsFromTokens(result) : spreadWords(text, result.start, result.end, speech);
    segments.push({
      start: round(result.start),
      end: round(result.end),
      text,
      words,
      language: language ?? normalizeSherpaLanguage(result.lang),
      avgLogprob: scores === null ? null : Math.round(mean(scores) * 10000) / 10000,
    });
  }
  return segments;
}
