import { findLanguage } from '../../../../contract/spec/languages.ts';

/**
 * Names and codes Whisper servers answer that the spec 2.5 table spells differently: Whisper's own
 * aliases (openai/whisper tokenizer.py TO_LANGUAGE_CODE) and ISO 639-1 codes of the same languages.
 */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['burmese', 'my'],
  ['valencian', 'ca'],
  ['flemish', 'nl'],
  ['haitian', 'ht'],
  ['letzeburgesch', 'lb'],
  ['pushto', 'ps'],
  ['panjabi', 'pa'],
  ['moldavian', 'ro'],
  ['moldovan', 'ro'],
  ['sinhalese', 'si'],
  ['castilian', 'es'],
  ['mandarin', 'zh'],
  ['jv', 'jw'],
  ['nb', 'no'],
  ['iw', 'he'],
]);

/**
 * Maps the language a transcription server reports to a spec 2.5 code. Servers answer a Whisper
 * name (OpenAI, Groq: `english`), a code (speaches, whisper.cpp: `en`) or a regional tag (`en-US`).
 * @param remote the server's `language` value, any case.
 * @returns the spec 2.5 code, e.g. `en`, `yue`, `jw`; null when empty or unknown.
 */
export function mapRemoteLanguage(remote: unknown): string | null {
  if (typeof remote !== 'string') return null;
  const value = remote.trim().toLowerCase();
  if (value === '') return null;
  const base = value.split(/[-_]/u)[0] ?? value;
  for (const candidate of [value, base]) {
    const code = findLanguage(candidate)?.code ?? ALIASES.get(candidate);
    if (code !== undefined) return code;
  }
  return null;
}
