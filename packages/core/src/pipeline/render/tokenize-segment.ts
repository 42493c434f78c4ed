import { cleanText, textLength } from './clean-text.ts';
import type { TranscriptSegment } from '../../contract/output/transcript-model.ts';

/** A piece of segment text with its time span in seconds; the unit the cue splitter moves. */
export interface CueToken {
  text: string;
  start: number;
  end: number;
  /** True when a space separates this token from the previous one in the segment text. */
  spaced: boolean;
}

/** Tokens laid over `start..end` (seconds) in proportion to their length in characters. */
function spreadByCharacters(pieces: readonly string[], start: number, end: number): CueToken[] {
  const total = pieces.reduce((sum, piece) => sum + textLength(piece), 0);
  const duration = Math.max(0, end - start);
  let before = 0;
  return pieces.map((text) => {
    const length = textLength(text);
    const token = {
      text,
      start: start + (duration * before) / total,
      end: start + (duration * (before + length)) / total,
      spaced: true,
    };
    before += length;
    return token;
  });
}

/** `token` cut into pieces of at most `maxChars` characters, its time shared by length. */
function chunkToken(token: CueToken, maxChars: number): CueToken[] {
  const chars = [...token.text];
  if (chars.length <= maxChars) return [token];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += maxChars) pieces.push(chars.slice(i, i + maxChars).join(''));
  return spreadByCharacters(pieces, token.start, token.end).map((piece, index) => ({
    ...piece,
    spaced: index === 0 ? token.spaced : false,
  }));
}

/**
 * The tokens of one segment for cue splitting (docs/formats.md "Cue splitting", spec 2.3.5).
 * Text is whitespace-cleaned and split at spaces. When the segment has exactly one word per
 * piece, each piece takes its word's `start`/`end` (seconds); otherwise times are spread over
 * the segment in proportion to characters. A piece longer than `maxChars` characters (scripts
 * without spaces, very long words) is cut into pieces of `maxChars` joined without a space.
 */
export function tokenizeSegment(segment: TranscriptSegment, maxChars: number): CueToken[] {
  const pieces = cleanText(segment.text)
    .split(' ')
    .filter((piece) => piece !== '');
  if (pieces.length === 0) return [];
  const words = segment.words;
  const tokens =
    words.length === pieces.length
      ? pieces.map((text, i) => {
          const word = words[i]!;
          return { text, start: word.start, end: Math.max(word.start, word.end), spaced: true };
        })
      : spreadByCharacters(pieces, segment.start, segment.end);
  return tokens.flatMap((token) => chunkToken(token, Math.max(1, maxChars)));
}
