import { LANGUAGES } from '@transcribe/core';
import { distance as levenshtein } from 'fastest-levenshtein';

/** Locales whose names of the languages are matched besides English and each language's own name. */
const NAME_LOCALES = ['en', 'ru'];

/** One spec 2.5 language with every name it is known by, normalised (see normalise). */
interface NamedLanguage {
  code: string;
  names: string[];
}

/**
 * Finds the spec 2.5 language meant by what a person typed: a code in any common form (`de`,
 * `DE`, `de-DE`, `de_AT`, `deu`, `ger`), the English name (`German`), the language's own name
 * (`Deutsch`, `русский`) or its Russian name (`немецкий`), case and accents ignored. A name may
 * be misspelt by a little (Levenshtein distance, from fastest-levenshtein: one edit for names up to
 * 5 letters, two for longer ones, a swap of two neighbouring letters counting as two) or cut short to a unique start of at least 3 letters (`deu`, `portug`):
 * people type on phones, and a picker of 100 buttons is slow.
 * @param allowed codes the caller can use (e.g. the engine's languages), or `'any'`.
 * @returns the spec code (`de`, `yue`, `jw`), or null when nothing fits well enough or two
 *   languages fit equally well.
 */
export function matchLanguage(text: string, allowed: readonly string[] | 'any' = 'any'): string | null {
  const wanted = normalise(text);
  if (wanted === '') return null;
  const languages = namedLanguages().filter((language) => allowed === 'any' || allowed.includes(language.code));
  const byCode = codeOf(text);
  const exact = languages.find((language) => language.code === byCode || language.names.includes(wanted));
  if (exact) return exact.code;
  if (wanted.length >= 3) {
    const starts = languages.filter((language) => language.names.some((name) => name.startsWith(wanted)));
    if (starts.length === 1) return starts[0]!.code;
  }
  const limit = wanted.length <= 5 ? 1 : 2;
  let best: { code: string; distance: number; tie: boolean } | null = null;
  for (const language of languages) {
    const distance = Math.min(...language.names.map((name) => levenshtein(wanted, name)));
    if (distance > limit) continue;
    if (!best || distance < best.distance) best = { code: language.code, distance, tie: false };
    else if (distance === best.distance) best.tie = true;
  }
  return best && !best.tie ? best.code : null;
}

/** The English name of a spec 2.5 code (`de` → `German`), or the code itself when unknown. */
export function languageName(code: string): string {
  return LANGUAGES.find((language) => language.code === code)?.name ?? code;
}

/**
 * A spec 2.5 language's name for a reader of `locale`: the spec's English name in English, else
 * the name ICU gives in that locale, capitalised (`de` → `Немецкий` for `ru`), falling back to the
 * English name.
 */
export function languageLabel(code: string, locale: string): string {
  const english = languageName(code);
  if (locale === 'en') return english;
  const tag = canonicalTag(code);
  let shown: string | undefined;
  try {
    shown = tag ? new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' }).of(tag) : undefined;
  } catch {
    shown = undefined;
  }
  return shown ? shown.charAt(0).toLocaleUpperCase(locale) + shown.slice(1) : english;
}

/**
 * Languages named in a sentence for a reader of `locale`: `English`, `English and Russian`;
 * in Russian lower case as the language writes them (`английский и русский`).
 */
export function languageListInWords(codes: readonly string[], locale: string): string {
  const names = codes.map((code) => {
    const label = languageLabel(code, locale);
    return locale === 'en' ? label : label.toLocaleLowerCase(locale);
  });
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(names);
}

/**
 * The spec 2.5 code a Telegram `language_code` (IETF tag such as `de`, `pt-br`) names, or null
 * (no tag, or a language the spec does not list).
 */
export function languageFromTelegram(languageCode: string | undefined): string | null {
  if (!languageCode) return null;
  const code = codeOf(languageCode);
  return LANGUAGES.some((language) => language.code === code) ? code : null;
}

let cached: NamedLanguage[] | null = null;

/** The 100 languages with their names, built once (Intl.DisplayNames is slow to create). */
function namedLanguages(): NamedLanguage[] {
  if (cached) return cached;
  const displays = NAME_LOCALES.map((locale) => new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' }));
  cached = LANGUAGES.map(({ code, name }) => {
    const names = new Set([normalise(name)]);
    const tag = canonicalTag(code);
    for (const display of [...displays, ownDisplay(tag)]) {
      const shown = tag ? display?.of(tag) : undefined;
      if (shown) names.add(normalise(shown));
    }
    names.delete('');
    return { code, names: [...names] };
  });
  return cached;
}

function ownDisplay(tag: string | null): Intl.DisplayNames | undefined {
  try {
    return tag ? new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A typed code as a spec code: the primary subtag of a tag (`de-DE`, `de_AT` → `de`), three-letter
 * and old codes through the ICU aliases (`deu`, `ger` → `de`; `jv` → spec's `jw`). Not a check
 * that the code exists.
 */
function codeOf(text: string): string {
  const tag = canonicalTag(text.trim().replace(/_/g, '-'));
  const primary = (tag ?? text.trim().toLowerCase()).split('-')[0] ?? '';
  const spec = LANGUAGES.find((language) => canonicalTag(language.code) === primary);
  return spec?.code ?? primary;
}

function canonicalTag(text: string): string | null {
  try {
    return Intl.getCanonicalLocales(text)[0]?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

/** Lower case, accents and apostrophes dropped, spaces collapsed: `ʻŌlelo Hawaiʻi` → `olelo hawaii`. */
function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u02bb\u02bc'’`]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
