import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@transcribe/core';
import { useApiFixture } from '../test-support/use-api-fixture.ts';
import type { LanguageListEntry } from './language-routes.ts';

/**
 * Spec 4.5 rule 3: a language error's detail refers to the list of languages. The service serves
 * that list itself, under the API root and behind the key check, and every such 422 names its
 * absolute URL, which then answers.
 */
describe('the language list (spec 2.5, 4.5 rule 3)', () => {
  const api = useApiFixture('pglite');

  const detailOf = async (input: Record<string, unknown>) => {
    const response = await api.create({ audio: `${api.files.url}/jfk.wav`, ...input });
    expect(response.status).toBe(422);
    return ((await response.json()) as { detail: string }).detail;
  };

  it.each([
    ['an unknown language', { language: 'Klingon' }],
    ['a language the engine does not recognise', { language: 'German' }],
    ['an unknown target_language', { post_process: [], target_language: 'Elvish' }],
  ])('should name the absolute URL of the list in the 422 for %s, and that URL should answer with the list', async (_name, input) => {
    const detail = await detailOf(input);
    const url = /See the list of languages at (\S+)\.$/.exec(detail)?.[1];
    expect(url).toBe(`${api.t.service.ctx.config.apiBaseUrl}/languages`);
    const response = await fetch(url!, { headers: { authorization: `Bearer ${api.t.key}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { engine: string; languages: LanguageListEntry[] };
    expect(body.engine).toBe(api.t.service.ctx.engine.name);
    expect(body.languages.map(({ code, name }) => ({ code, name }))).toEqual(LANGUAGES.map(({ code, name }) => ({ code, name })));
    // PocketSphinx (the engine of the tests) recognises English only.
    expect(body.languages.filter((language) => language.recognition).map((language) => language.code)).toEqual(['en']);
  });

  it('should answer under both API roots, and 401 without a key', async () => {
    for (const root of [`${api.t.replicateBase}/v1`, api.t.replicateBase]) {
      expect((await fetch(`${root}/languages`, { headers: { authorization: `Bearer ${api.t.key}` } })).status).toBe(200);
      const refused = await fetch(`${root}/languages`);
      expect(refused.status).toBe(401);
    }
  });
});
