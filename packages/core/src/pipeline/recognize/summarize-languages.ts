import { findLanguage } from '../../contract/spec/languages.ts';
import type { DetectedLanguage } from '../../contract/output/transcript-model.ts';
import type { RecognizedSegment } from './recognition-engine.ts';

/** Languages written without spaces between words: words are joined without a separator. */
const UNSPACED_LANGUAGES = new Set(['zh', 'yue', 'ja', 'th', 'lo', 'km', 'my', 'bo']);

/** The separator between words of `language` when a segment's text is rebuilt from its words. */
export function wordSeparator(language: string | null): string {
  return language !== null && UNSPACED_LANGUAGES.has(language) ? '' : ' ';
}

function nameOf(code: string): string {
  return findLanguage(code)?.name ?? code;
}

/**
 * The main language and the json2 `languages` list (spec 2.3.4) of recognised speech:
 * a requested language wins; otherwise the language the engine reported for the most speech time,
 * else the engine's default. When segments carry more than one language, or `multilingual` was
 * asked (spec 2.2) and the engine tagged segments, each language found gets its total segment
 * `duration` in seconds (longest first); otherwise, with only the main language known, one element
 * with `probability` and `duration` null. `probability` is always null: no engine gives one for a
 * language (the OpenAI protocol's verbose_json has none, sherpa-onnx reports only a label).
 */
export function summarizeLanguages(
  segments: readonly RecognizedSegment[],
  requested: string | null,
  fallback: string,
  options: { multilingual?: boolean } = {},
): { language: string; languages: DetectedLanguage[] } {
  const seconds = new Map<string, number>();
  for (const segment of segments) {
    if (segment.language) seconds.set(segment.language, (seconds.get(segment.language) ?? 0) + segment.end - segment.start);
  }
  const ranked = [...seconds.entries()].sort((a, b) => b[1] - a[1]);
  const language = requested ?? ranked[0]?.[0] ?? fallback;
  const listed = options.multilingual ? ranked.length >= 1 : ranked.length >= 2;
  if (requested !== null || !listed) {
    return { language, languages: [{ code: language, name: nameOf(language), probability: null, duration: null }] };
  }
  const languages = ranked.map(([code, duration]) => ({
    code,
    name: nameOf(code),
    probability: null,
    duration: Math.round(duration * 1000) / 1000,
  }));
  return { language, languages };
}
