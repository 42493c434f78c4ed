import { describe, expect, it } from 'vitest';
import { derivePromptHints } from './derive-prompt-hints.ts';

describe('derivePromptHints', () => {
  it('should take names, acronyms, inner capitals and words with digits', () => {
    expect(derivePromptHints('This is Diane in New Jersey, and I am Sheila. We use GPT-4 and the NASA API on GitHub.')).toEqual([
      'Diane',
      'Jersey',
      'New Jersey',
      'Sheila',
      'GPT-4',
      'NASA',
      'API',
      'NASA API',
      'GitHub',
    ]);
  });

  it('should take capitalised words that start a sentence unless they are common words', () => {
    expect(derivePromptHints('Team meeting. Kubernetes, Grafana')).toEqual(['Kubernetes', 'Grafana']);
    expect(derivePromptHints('Elinor and Marianne Dashwood live at Norland.')).toEqual([
      'Elinor',
      'Marianne',
      'Dashwood',
      'Marianne Dashwood',
      'Norland',
    ]);
  });

  it('should give nothing for plain text or null, and at most `limit` hints', () => {
    expect(derivePromptHints('The cat sat on the mat.')).toEqual([]);
    expect(derivePromptHints(null)).toEqual([]);
    expect(derivePromptHints('Alpha Bravo, Charlie, Delta', 2)).toEqual(['Alpha', 'Bravo']);
  });
});
