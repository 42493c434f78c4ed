import { Router } from 'express';
import { LANGUAGE_LIST_PATH, LANGUAGES, type ServiceContext } from '@transcribe/core';

/** One entry of `GET …/v1/languages`. */
export interface LanguageListEntry {
  /** Spec 2.5 code, e.g. `de`; what `language` and `target_language` take (so does the English name). */
  code: string;
  /** Spec 2.5 English name, e.g. `German`. */
  name: string;
  /** True when the configured recognition engine recognises it, so `language` may name it. */
  recognition: boolean;
}

/**
 * `GET …/v1/languages` (spec 4.5 rule 3: a language error's detail refers to "the list of
 * languages"; every such 422 names this absolute URL): the spec 2.5 table in its order, codes and
 * English names, each marked with whether the configured engine recognises it. Every entry may be a
 * `target_language`. Behind the same key check as the rest of the API.
 * @example
 * curl -H "Authorization: Bearer $KEY" "$BASE/v1/replicate/v1/languages"
 * // {"engine":"pocketsphinx","languages":[{"code":"af","name":"Afrikaans","recognition":false}, …]}
 */
export function languageRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const recognised = ctx.engine.languages;
  const body = {
    engine: ctx.engine.name,
    languages: LANGUAGES.map((language): LanguageListEntry => ({
      code: language.code,
      name: language.name,
      recognition: recognised === 'any' || recognised.includes(language.code),
    })),
  };
  router.get(LANGUAGE_LIST_PATH, (_req, res) => {
    res.json(body);
  });
  return router;
}
