import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POST_PROCESS_TYPE_NAMES } from '../../contract/spec/post-process-types.ts';
import { describeOutputLanguage } from './describe-output-language.ts';
import { POST_PROCESSING_PROMPTS, SHARED_PROMPT } from './post-processing-prompts.ts';

const GOLDEN = new URL('./__golden__/prompt-versions.json', import.meta.url);
const DOC = new URL('../../../../../docs/post-processing.md', import.meta.url);

/** Version and fingerprint of every prompt text (the shared texts under `shared`). */
function fingerprints(): Record<string, { version: number; sha256: string }> {
  const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
  const entries = Object.entries(POST_PROCESSING_PROMPTS).map(([type, { version, ...texts }]) => [type, { version, sha256: hash(texts) }]);
  const { version, ...shared } = SHARED_PROMPT;
  return Object.fromEntries([['shared', { version, sha256: hash(shared) }], ...entries]);
}

describe('post-processing prompts', () => {
  it('should have one prompt per type of spec 2.4', () => {
    expect(Object.keys(POST_PROCESSING_PROMPTS).sort()).toEqual([...POST_PROCESS_TYPE_NAMES].sort());
  });

  it('should be versioned: a changed text needs a raised version (then UPDATE_GOLDEN=1)', () => {
    const current = fingerprints();
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) writeFileSync(GOLDEN, `${JSON.stringify(current, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as typeof current;
    for (const [name, entry] of Object.entries(current)) {
      const recorded = golden[name];
      if (recorded && recorded.sha256 !== entry.sha256) {
        expect(entry.version, `prompt "${name}" changed: raise its version`).toBeGreaterThan(recorded.version);
      }
      expect(entry, `prompt "${name}": after review, record it with UPDATE_GOLDEN=1`).toEqual(recorded);
    }
  });

  it('should give every condense type a focus for its map-reduce notes', () => {
    for (const [type, prompt] of Object.entries(POST_PROCESSING_PROMPTS)) {
      if (prompt.method === 'condense') expect(prompt.notesFocus, type).toMatch(/\.$/u);
      expect(prompt.purpose, type).toMatch(/\.\)?$/u);
    }
  });

  it('should ask for JSON exactly in the structured types', () => {
    for (const [type, prompt] of Object.entries(POST_PROCESSING_PROMPTS)) {
      const structured = ['chapters', 'subtitles', 'speaker-names'].includes(prompt.method);
      expect(prompt.task.includes('JSON'), type).toBe(structured);
    }
  });

  it('should be quoted verbatim in docs/post-processing.md', () => {
    const doc = readFileSync(DOC, 'utf8');
    for (const [type, prompt] of Object.entries(POST_PROCESSING_PROMPTS)) {
      expect(doc, type).toContain(`### ${type}\n`);
      expect(doc, type).toContain(`\n${prompt.task}\n`);
      expect(doc, type).toContain(`Prompt version ${prompt.version}.`);
    }
    const { version, ...shared } = SHARED_PROMPT;
    for (const text of Object.values(shared)) expect(doc).toContain(text);
    expect(doc).toContain(`Shared texts (version ${version}, verbatim)`);
  });

  it('should follow the language rules of spec 2.4', () => {
    expect(POST_PROCESSING_PROMPTS.lecture_notes.language).toBe('russian');
    expect(POST_PROCESSING_PROMPTS.translation.language).toBe('target');
    expect(POST_PROCESSING_PROMPTS.translated_subtitles.language).toBe('target');
    expect(POST_PROCESSING_PROMPTS.custom.language).toBe('transcript-unless-asked');
    const others = Object.entries(POST_PROCESSING_PROMPTS).filter(
      ([type]) => !['lecture_notes', 'translation', 'translated_subtitles', 'custom'].includes(type),
    );
    for (const [type, prompt] of others) expect(prompt.language, type).toBe('transcript');
  });
});

describe('describeOutputLanguage', () => {
  it("should name the transcript's language from the spec 2.5 table", () => {
    expect(describeOutputLanguage('transcript', 'de', null)).toBe('Write the result in German, the language of the transcript.');
    expect(describeOutputLanguage('transcript', 'yue', null)).toBe('Write the result in Cantonese, the language of the transcript.');
    expect(describeOutputLanguage('transcript', null, null)).toBe('Write the result in the language of the transcript.');
    expect(describeOutputLanguage('transcript', 'xx', null)).toBe('Write the result in the language of the transcript.');
  });

  it("should use Russian for lecture notes whatever the transcript's language", () => {
    expect(describeOutputLanguage('russian', 'en', 'fr')).toBe('Write the result in Russian.');
  });

  it('should use target_language by code or name', () => {
    expect(describeOutputLanguage('target', 'en', 'ja')).toBe('Write the result in Japanese.');
    expect(describeOutputLanguage('target', 'en', ' haitian CREOLE ')).toBe('Write the result in Haitian creole.');
  });

  it('should let custom instructions choose another language', () => {
    expect(describeOutputLanguage('transcript-unless-asked', 'fr', null)).toBe(
      'Write the result in French, the language of the transcript, unless the instructions ask for another language.',
    );
  });

  it('should refuse a missing or unknown target language', () => {
    expect(() => describeOutputLanguage('target', 'en', null)).toThrow('target_language must name a language of the list');
    expect(() => describeOutputLanguage('target', 'en', 'Elvish')).toThrow('target_language must name a language of the list');
  });
});
