/**
 * The language table of spec 2.5 ("Language codes for target_language", code = English name),
 * kept as data in the spec's order. Used for `language` and `target_language` (spec 2.2).
 * The spec lists 100 languages (the 99 of Whisper plus `yue` Cantonese).
 */
export interface Language {
  /** Code as written in spec 2.5, e.g. `en`, `yue`, `haw`. */
  readonly code: string;
  /** English name as written in spec 2.5, e.g. `Haitian creole`. */
  readonly name: string;
}

/** Spec 2.5, verbatim, in table order (100 entries). */
export const LANGUAGES: readonly Language[] = [
  { code: 'af', name: 'Afrikaans' },
  { code: 'sq', name: 'Albanian' },
  { code: 'am', name: 'Amharic' },
  { code: 'ar', name: 'Arabic' },
  { code: 'hy', name: 'Armenian' },
  { code: 'as', name: 'Assamese' },
  { code: 'az', name: 'Azerbaijani' },
  { code: 'ba', name: 'Bashkir' },
  { code: 'eu', name: 'Basque' },
  { code: 'be', name: 'Belarusian' },
  { code: 'bn', name: 'Bengali' },
  { code: 'bs', name: 'Bosnian' },
  { code: 'br', name: 'Breton' },
  { code: 'bg', name: 'Bulgarian' },
  { code: 'yue', name: 'Cantonese' },
  { code: 'ca', name: 'Catalan' },
  { code: 'zh', name: 'Chinese' },
  { code: 'hr', name: 'Croatian' },
  { code: 'cs', name: 'Czech' },
  { code: 'da', name: 'Danish' },
  { code: 'nl', name: 'Dutch' },
  { code: 'en', name: 'English' },
  { code: 'et', name: 'Estonian' },
  { code: 'fo', name: 'Faroese' },
  { code: 'fi', name: 'Finnish' },
  { code: 'fr', name: 'French' },
  { code: 'gl', name: 'Galician' },
  { code: 'ka', name: 'Georgian' },
  { code: 'de', name: 'German' },
  { code: 'el', name: 'Greek' },
  { code: 'gu', name: 'Gujarati' },
  { code: 'ht', name: 'Haitian creole' },
  { code: 'ha', name: 'Hausa' },
  { code: 'haw', name: 'Hawaiian' },
  { code: 'he', name: 'Hebrew' },
  { code: 'hi', name: 'Hindi' },
  { code: 'hu', name: 'Hungarian' },
  { code: 'is', name: 'Icelandic' },
  { code: 'id', name: 'Indonesian' },
  { code: 'it', name: 'Italian' },
  { code: 'ja', name: 'Japanese' },
  { code: 'jw', name: 'Javanese' },
  { code: 'kn', name: 'Kannada' },
  { code: 'kk', name: 'Kazakh' },
  { code: 'km', name: 'Khmer' },
  { code: 'ko', name: 'Korean' },
  { code: 'lo', name: 'Lao' },
  { code: 'la', name: 'Latin' },
  { code: 'lv', name: 'Latvian' },
  { code: 'ln', name: 'Lingala' },
  { code: 'lt', name: 'Lithuanian' },
  { code: 'lb', name: 'Luxembourgish' },
  { code: 'mk', name: 'Macedonian' },
  { code: 'mg', name: 'Malagasy' },
  { code: 'ms', name: 'Malay' },
  { code: 'ml', name: 'Malayalam' },
  { code: 'mt', name: 'Maltese' },
  { code: 'mi', name: 'Maori' },
  { code: 'mr', name: 'Marathi' },
  { code: 'mn', name: 'Mongolian' },
  { code: 'my', name: 'Myanmar' },
  { code: 'ne', name: 'Nepali' },
  { code: 'no', name: 'Norwegian' },
  { code: 'nn', name: 'Nynorsk' },
  { code: 'oc', name: 'Occitan' },
  { code: 'ps', name: 'Pashto' },
  { code: 'fa', name: 'Persian' },
  { code: 'pl', name: 'Polish' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'pa', name: 'Punjabi' },
  { code: 'ro', name: 'Romanian' },
  { code: 'ru', name: 'Russian' },
  { code: 'sa', name: 'Sanskrit' },
  { code: 'sr', name: 'Serbian' },
  { code: 'sn', name: 'Shona' },
  { code: 'sd', name: 'Sindhi' },
  { code: 'si', name: 'Sinhala' },
  { code: 'sk', name: 'Slovak' },
  { code: 'sl', name: 'Slovenian' },
  { code: 'so', name: 'Somali' },
  { code: 'es', name: 'Spanish' },
  { code: 'su', name: 'Sundanese' },
  { code: 'sw', name: 'Swahili' },
  { code: 'sv', name: 'Swedish' },
  { code: 'tl', name: 'Tagalog' },
  { code: 'tg', name: 'Tajik' },
  { code: 'ta', name: 'Tamil' },
  { code: 'tt', name: 'Tatar' },
  { code: 'te', name: 'Telugu' },
  { code: 'th', name: 'Thai' },
  { code: 'bo', name: 'Tibetan' },
  { code: 'tr', name: 'Turkish' },
  { code: 'tk', name: 'Turkmen' },
  { code: 'uk', name: 'Ukrainian' },
  { code: 'ur', name: 'Urdu' },
  { code: 'uz', name: 'Uzbek' },
  { code: 'vi', name: 'Vietnamese' },
  { code: 'cy', name: 'Welsh' },
  { code: 'yi', name: 'Yiddish' },
  { code: 'yo', name: 'Yoruba' },
];

/**
 * Where users find the language list; appended to every language-related 422 detail (spec 4.5
 * rule 3: "detail and a reference to the list of languages").
 * @param url the absolute URL of the service's own list (`{api base}/languages`, served by
 *   apps/api/src/routes/language-routes.ts); without it (a caller with no service, such as a unit
 *   test) the documentation is named instead.
 * @returns a sentence such as `See the list of languages at https://host/v1/replicate/v1/languages.`
 */
export function languageListReference(url: string | undefined): string {
  return url ? `See the list of languages at ${url}.` : 'See the list of languages in docs/api.md#languages.';
}

/** The path of the language list under the API base (`ServiceConfig.apiBaseUrl`). */
export const LANGUAGE_LIST_PATH = '/languages';

const BY_KEY: ReadonlyMap<string, Language> = new Map(
  LANGUAGES.flatMap((language) => [
    [language.code.toLowerCase(), language],
    [language.name.toLowerCase(), language],
  ]),
);

/**
 * Finds a spec 2.5 language by code (`de`) or English name (`German`), ignoring case and
 * surrounding whitespace. Regional tags (`en-US`) and native names (`Deutsch`) are not matched.
 *
 * @param value any string, e.g. ` haitian CREOLE `.
 * @returns the table entry (`{ code: 'ht', name: 'Haitian creole' }`), or undefined when none matches.
 */
export function findLanguage(value: string): Language | undefined {
  return BY_KEY.get(value.trim().toLowerCase());
}

/**
 * Formats a language code for a user-facing message: `fr (French)`, or the bare code when it is
 * not in the table (an engine may report codes outside spec 2.5).
 */
export function describeLanguageCode(code: string): string {
  const language = findLanguage(code);
  return language === undefined ? code : `${language.code} (${language.name})`;
}
