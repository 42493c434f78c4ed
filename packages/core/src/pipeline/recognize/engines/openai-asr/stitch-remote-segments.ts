import type { TranscriptWord } from '../../../../contract/output/transcript-model.ts';
import { mapRemoteLanguage } from './map-remote-language.ts';
import type { RemoteChunk } from './plan-remote-chunks.ts';
import { readRemoteTranscription, type RemoteSegment, type RemoteWord } from './read-remote-transcription.ts';
import type { RecognizedSegment } from '../../recognition-engine.ts';

/**
 * Turns one `verbose_json` answer (OpenAI transcription protocol) for `chunk` into segments in
 * recording time: every segment and word time (seconds from the chunk's start) is clamped to the
 * chunk's length, shifted by `chunk.start` and rounded to ms.
 * - Words: top-level `words` (OpenAI, Groq, speaches) go to the last segment starting at or before
 *   their middle; without them, each segment's own `words` (whisper.cpp's server) are used.
 * - Word confidence: the word's `probability` when the server gives one (whisper.cpp, this service),
 *   else null: a segment's score is not spread over its words as if it were theirs.
 * - Segment `avgLogprob`: the server's own `avg_logprob`, passed through (null without one).
 * - An answer with `text` but no `segments` becomes one segment spanning the chunk.
 * - Texts are trimmed; segments without text and words are dropped.
 * @param requestedLanguage the request's spec 2.5 code, or null: then the server's detected
 *   `language` (`english` or `en`) mapped by mapRemoteLanguage, or null when unknown.
 * @throws AppError `recognition_failed` when `answer` is not a transcription object.
 */
export function stitchRemoteSegments(answer: unknown, chunk: RemoteChunk, requestedLanguage: string | null): RecognizedSegment[] {
  const remote = readRemoteTranscription(answer);
  const length = chunk.end - chunk.start;
  const place = (seconds: number) => Math.round((chunk.start + Math.min(length, Math.max(0, seconds))) * 1000) / 1000;
  const toWord = (word: RemoteWord): TranscriptWord => ({
    start: place(word.start),
    end: place(Math.max(word.start, word.end)),
    text: word.text,
    confidence: word.probability,
  });
  const language = requestedLanguage ?? mapRemoteLanguage(remote.language);
  const segments: RemoteSegment[] =
    remote.segments.length > 0 || remote.text.trim() === ''
      ? remote.segments
      : [{ start: 0, end: length, text: remote.text, avgLogprob: null, words: [] }];
  const stitched = segments.map((segment) => ({
    start: place(segment.start),
    end: place(Math.max(segment.start, segment.end)),
    text: segment.text.trim(),
    words: remote.words.length > 0 ? [] : segment.words.map(toWord),
    language,
    avgLogprob: segment.avgLogprob,
  }));
  let index = 0;
  for (const word of remote.words) {
    const middle = (place(word.start) + place(Math.max(word.start, word.end))) / 2;
    while (index < stitched.length - 1 && stitched[index + 1]!.start <= middle) index += 1;
    stitched[index]?.words.push(toWord(word));
  }
  return stitched.filter((segment) => segment.text !== '' || segment.words.length > 0);
}
