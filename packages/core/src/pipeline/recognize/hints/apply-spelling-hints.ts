import type { TranscriptWord } from '../../../contract/output/transcript-model.ts';
import { describeSounds, matchSoundAlike, type Sounds } from './match-sound-alike.ts';
import { readPronunciations, type Pronunciations } from './read-pronunciations.ts';
import type { RecognizedSegment } from '../recognition-engine.ts';
import { wordSeparator } from '../summarize-languages.ts';
import { normalizeForWer } from '../word-error-rate.ts';

export interface ApplySpellingHintsOptions {
  /** CMUdict-format pronunciation file (read-pronunciations.ts), or null to match by spelling only. */
  dictionaryPath: string | null;
  /** Longest run of recognised words compared with one hint (default 3; longer hints use their own length). */
  maxSpanWords?: number;
}

export interface SpellingHintsResult {
  segments: RecognizedSegment[];
  /** Runs of words replaced by a hint that sounded like it (spelling changed, not only case). */
  replaced: number;
  /** Runs of words already spelt like a hint that only took its case. */
  recased: number;
}

interface Hint {
  words: string[];
  tokens: string[];
  sounds: Sounds;
}
interface Match {
  start: number;
  length: number;
  hint: Hint;
  score: number;
}

/** Lowercase, punctuation removed, inner spaces dropped: `Wi-Fi,` → `wifi`. */
function tokenOf(text: string): string {
  return normalizeForWer(text).replace(/ /g, '');
}

function prepareHints(hints: readonly string[]): Array<Omit<Hint, 'sounds'>> {
  const seen = new Set<string>();
  const prepared: Array<Omit<Hint, 'sounds'>> = [];
  for (const hint of hints) {
    const words = hint
      .trim()
      .split(/\s+/)
      .filter((word) => tokenOf(word) !== '');
    const tokens = words.map(tokenOf);
    const key = tokens.join(' ');
    if (words.length === 0 || seen.has(key)) continue;
    seen.add(key);
    prepared.push({ words, tokens });
  }
  return prepared;
}

/**
 * Every (span, hint) pair that sounds alike, best first (lowest score, then longest span). `cache`
 * holds each distinct span's scores against the hints (transcripts repeat words a lot).
 */
function findMatches(
  tokens: readonly string[],
  hints: readonly Hint[],
  pronunciations: Pronunciations,
  maxSpan: number,
  cache: Map<string, (number | null)[]>,
): Match[] {
  const matches: Match[] = [];
  for (let start = 0; start < tokens.length; start++) {
    for (let length = 1; length <= maxSpan && start + length <= tokens.length; length++) {
      const span = tokens.slice(start, start + length);
      if (span.some((token) => token === '')) break;
      const key = span.join(' ');
      let scores = cache.get(key);
      if (!scores) {
        const sounds = describeSounds(span, pronunciations);
        scores = hints.map((hint) => (length > Math.max(3, hint.tokens.length) ? null : matchSoundAlike(sounds, hint.sounds)));
        cache.set(key, scores);
      }
      scores.forEach((score, index) => {
        if (score !== null) matches.push({ start, length, hint: hints[index]!, score });
      });
    }
  }
  return matches.sort((a, b) => a.score - b.score || b.length - a.length || a.start - b.start);
}

const LEADING = /^[^\p{L}\p{N}]*/u;
const TRAILING = /[^\p{L}\p{N}]*$/u;

/** The words that replace `span`: one per hint word when the counts agree, else one spanning all. */
function replacementWords(span: readonly TranscriptWord[], hint: Hint): TranscriptWord[] {
  const lead = span[0]!.text.match(LEADING)![0];
  const trail = span.at(-1)!.text.match(TRAILING)![0];
  if (span.length === hint.words.length) {
    return span.map((word, i) => ({ ...word, text: word.text.match(LEADING)![0] + hint.words[i] + word.text.match(TRAILING)![0] }));
  }
  const confidences = span.map((word) => word.confidence);
  const confidence = confidences.every((value): value is number => value !== null) ? Math.min(...confidences) : null;
  return [{ start: span[0]!.start, end: span.at(-1)!.end, text: lead + hint.words.join(' ') + trail, confidence }];
}

function correctSegment(
  segment: RecognizedSegment,
  hints: readonly Hint[],
  pronunciations: Pronunciations,
  options: Required<ApplySpellingHintsOptions>,
  cache: Map<string, (number | null)[]>,
) {
  const tokens = segment.words.map((word) => tokenOf(word.text));
  const maxSpan = Math.max(options.maxSpanWords, ...hints.map((hint) => hint.tokens.length));
  const chosen = new Map<number, Match>();
  const taken = new Set<number>();
  for (const match of findMatches(tokens, hints, pronunciations, maxSpan, cache)) {
    const range = Array.from({ length: match.length }, (_, i) => match.start + i);
    if (range.some((i) => taken.has(i))) continue;
    range.forEach((i) => taken.add(i));
    chosen.set(match.start, match);
  }
  const words: TranscriptWord[] = [];
  let replaced = 0,
    recased = 0;
  for (let i = 0; i < segment.words.length; i++) {
    const match = chosen.get(i);
    if (!match) {
      words.push(segment.words[i]!);
      continue;
    }
    const span = segment.words.slice(i, i + match.length);
    const replacement = replacementWords(span, match.hint);
    const before = span.map((word) => word.text).join(' ');
    const after = replacement.map((word) => word.text).join(' ');
    if (tokenOf(before) !== tokenOf(after)) replaced++;
    else if (before !== after) recased++;
    words.push(...replacement);
    i += match.length - 1;
  }
  if (replaced + recased === 0) return { segment, replaced, recased };
  const text = words.map((word) => word.text).join(wordSeparator(segment.language ?? 'en'));
  return { segment: { ...segment, words, text }, replaced, recased };
}

/**
 * Contextual spelling correction (`hotwords` and `prompt` must have an effect on every engine, spec 2.2):
 * runs of 1–3 recognised words that sound like a hint are replaced by the hint as the user spelt
 * it; words already spelt like a hint (case-insensitive) take its case. Sound comparison:
 * match-sound-alike.ts, with CMUdict pronunciations for English segments (language `en` or null)
 * and Double Metaphone keys otherwise. Overlapping candidates: the closest wins.
 * Times in seconds: a replacement keeps the words' times (one word per hint word when the counts
 * agree; otherwise one word from the first word's start to the last word's end, with the lowest
 * confidence, or null when any is null). Segments without words are left as they are.
 * @param hints phrases as the user spells them (hotwords, terms from the prompt); blanks ignored.
 */
export async function applySpellingHints(
  segments: readonly RecognizedSegment[],
  hints: readonly string[],
  options: ApplySpellingHintsOptions,
): Promise<SpellingHintsResult> {
  const prepared = prepareHints(hints);
  if (prepared.length === 0) return { segments: [...segments], replaced: 0, recased: 0 };
  const english = segments.filter((segment) => segment.language === null || segment.language === 'en');
  const tokens = [
    ...prepared.flatMap((hint) => hint.tokens),
    ...english.flatMap((segment) => segment.words.map((word) => tokenOf(word.text))),
  ];
  const needed = new Set(tokens.flatMap((token) => (token.endsWith("'s") ? [token, token.slice(0, -2)] : [token])));
  const pronunciations = english.length > 0 ? await readPronunciations(options.dictionaryPath, needed) : new Map();
  const settings = { maxSpanWords: 3, ...options };
  const contexts = [pronunciations, new Map()].map((known: Pronunciations) => ({
    pronunciations: known,
    cache: new Map<string, (number | null)[]>(),
    hints: prepared.map((hint) => ({ ...hint, sounds: describeSounds(hint.tokens, known) })),
  }));
  let replaced = 0,
    recased = 0;
  const corrected = segments.map((segment) => {
    const context = contexts[segment.language === null || segment.language === 'en' ? 0 : 1]!;
    const result = correctSegment(segment, context.hints, context.pronunciations, settings, context.cache);
    replaced += result.replaced;
    recased += result.recased;
    return result.segment;
  });
  return { segments: corrected, replaced, recased };
}
