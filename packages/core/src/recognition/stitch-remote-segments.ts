import { AppError } from '../errors/app-error.ts';
import type { TranscriptWord } from '../transcript/transcript-model.ts';
import { mapRemoteLanguage } from './map-remote-language.ts';
import type { RemoteChunk } from './plan-remote-chunks.ts';
import type { RecognizedSegment } from './recognition-engine.ts';

interface RemoteSegment {
  start: number;
  end: number;
  text: string;
  /** Mean log-probability of the segment's tokens, when the server gives it. */
  avgLogprob: number | null;
}

interface RemoteWord {
  start: number;
  end: number;
  text: string;
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Turns one `verbose_json` answer (OpenAI transcription protocol) for `chunk` into segments in
 * recording time: every segment and word time (seconds from the chunk's start) is clamped to the
 * chunk's length and shifted by `chunk.start`, then rounded to ms. Words (`words`, present when the
 * server honours `timestamp_granularities[]=word`) go to the last segment starting at or before
 * their middle. A word's confidence is exp(`avg_logprob`) of its segment (the segment's mean token
 * probability, 0..1), or null when the server gives none. An answer with `text` but no
 * `segments` becomes one segment spanning the chunk. Texts are trimmed; empty segments dropped.
 * @param requestedLanguage the request's spec 2.5 code, or null: then the server's detected
 *   `language` (`english` or `en`) mapped by mapRemoteLanguage, or null when unknown.
 * @throws AppError `recognition_failed` when `answer` is not a transcription object.
 */
export function stitchRemoteSegments(answer: unknown, chunk: RemoteChunk, requestedLanguage: string | null): RecognizedSegment[] {
  if (typeof answer !== 'object' || answer === null || (!Array.isArray((answer as { segments?: unknown }).segments) &&
    typeof (answer as { text?: unknown }).text !== 'string')) {
    throw new AppError('recognition_failed', 'The speech recognition server sent an answer that is not a verbose_json transcription.');
  }
  const body = answer as { segments?: unknown; words?: unknown; text?: unknown; language?: unknown };
  const length = chunk.end - chunk.start;
  const place = (seconds: number) => Math.round((chunk.start + Math.min(length, Math.max(0, seconds))) * 1000) / 1000;
  const language = requestedLanguage ?? mapRemoteLanguage(body.language);
  let segments = readSegments(body.segments);
  if (segments.length === 0 && typeof body.text === 'string' && body.text.trim() !== '') {
    segments = [{ start: 0, end: length, text: body.text, avgLogprob: null }];
  }
  const stitched = segments.map((segment) => ({
    start: place(segment.start),
    end: place(Math.max(segment.start, segment.end)),
    text: segment.text.trim(),
    words: [] as TranscriptWord[],
    language,
  }));
  let index = 0;
  for (const word of readWords(body.words)) {
    const start = place(word.start);
    const end = place(Math.max(word.start, word.end));
    const middle = (start + end) / 2;
    while (index < stitched.length - 1 && stitched[index + 1]!.start <= middle) index += 1;
    const logprob = segments[index]?.avgLogprob ?? null;
    const confidence = logprob === null ? null : Math.min(1, Math.exp(logprob));
    stitched[index]?.words.push({ start, end, text: word.text, confidence });
  }
  return stitched.filter((segment) => segment.text !== '' || segment.words.length > 0);
}

function readSegments(value: unknown): RemoteSegment[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null)
    .filter((s) => isFiniteNumber(s.start) && isFiniteNumber(s.end) && typeof s.text === 'string')
    .map((s) => ({
      start: s.start as number,
      end: s.end as number,
      text: s.text as string,
      avgLogprob: isFiniteNumber(s.avg_logprob) ? s.avg_logprob : null,
    }))
    .sort((a, b) => a.start - b.start);
}

function readWords(value: unknown): RemoteWord[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((w): w is Record<string, unknown> => typeof w === 'object' && w !== null)
    .filter((w) => isFiniteNumber(w.start) && isFiniteNumber(w.end) && typeof w.word === 'string' && w.word.trim() !== '')
    .map((w) => ({ start: w.start as number, end: w.end as number, text: (w.word as string).trim() }))
    .sort((a, b) => a.start - b.start);
}
