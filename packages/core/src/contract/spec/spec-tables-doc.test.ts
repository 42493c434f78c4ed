import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages.ts';
import { POST_PROCESS_TYPES } from './post-process-types.ts';

/** The document that shows these tables to users (folded into docs/api.md later: update the path then). */
const DOC = new URL('../../../../../docs/input-rules.md', import.meta.url);

/** Rows `| `a` | b |` of the table under the heading `## <heading>`. */
function tableRows(markdown: string, heading: string): [string, string][] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';
  return [...section.matchAll(/^\| `([^`]+)` \| (.+?) \|$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']);
}

describe('docs/input-rules.md tables', () => {
  const markdown = readFileSync(DOC, 'utf8');

  it('should list exactly LANGUAGES under ## Languages', () => {
    expect(tableRows(markdown, 'Languages')).toEqual(LANGUAGES.map((language) => [language.code, language.name]));
  });

  it('should list exactly POST_PROCESS_TYPES under ## Post-processing types', () => {
    expect(tableRows(markdown, 'Post-processing types')).toEqual(POST_PROCESS_TYPES.map((entry) => [entry.type, entry.result]));
  });
});
