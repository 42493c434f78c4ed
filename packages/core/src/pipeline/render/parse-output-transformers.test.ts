import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors/app-error.ts';
import { OUTPUT_TRANSFORMERS_HEADER, parseOutputTransformers } from './parse-output-transformers.ts';

function rejection(header: string): AppError {
  try {
    parseOutputTransformers(header);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`header ${JSON.stringify(header)} was accepted`);
}

describe('parseOutputTransformers', () => {
  it('should return null for an absent or empty header', () => {
    expect(parseOutputTransformers(undefined)).toBeNull();
    expect(parseOutputTransformers(null)).toBeNull();
    expect(parseOutputTransformers('')).toBeNull();
    expect(parseOutputTransformers('   ')).toBeNull();
  });

  it('should take the defaults for a bare text transformer', () => {
    expect(parseOutputTransformers('text')).toEqual({ kind: 'text', speakers: true, timestamps: true, pauses: false });
    expect(parseOutputTransformers('  text ')).toEqual({ kind: 'text', speakers: true, timestamps: true, pauses: false });
  });

  it('should read every switch', () => {
    expect(parseOutputTransformers('text?speakers=true&timestamps=false&pauses=true')).toEqual({
      kind: 'text',
      speakers: true,
      timestamps: false,
      pauses: true,
    });
    expect(parseOutputTransformers('text?pauses=false&speakers=false&timestamps=true')).toEqual({
      kind: 'text',
      speakers: false,
      timestamps: true,
      pauses: false,
    });
  });

  it('should default missing switches', () => {
    expect(parseOutputTransformers('text?pauses=true')).toEqual({ kind: 'text', speakers: true, timestamps: true, pauses: true });
    expect(parseOutputTransformers('text?timestamps=false')).toEqual({ kind: 'text', speakers: true, timestamps: false, pauses: false });
  });

  it('should accept 1 and 0 and any letter case of true and false', () => {
    expect(parseOutputTransformers('text?speakers=0&timestamps=1&pauses=TRUE')).toEqual({
      kind: 'text',
      speakers: false,
      timestamps: true,
      pauses: true,
    });
    expect(parseOutputTransformers('text?speakers=False')).toEqual({ kind: 'text', speakers: false, timestamps: true, pauses: false });
  });

  const rejected: [string, RegExp][] = [
    ['json', /unknown output transformer "json"/],
    ['Text', /unknown output transformer "Text"/],
    ['text,srt', /unknown output transformer "text,srt"/],
    ['?speakers=true', /unknown output transformer ""/],
    ['text?', /"\?" must be followed by switches/],
    ['text?speakers=true&', /empty switch/],
    ['text?&pauses=true', /empty switch/],
    ['text?speakers=true&&pauses=true', /empty switch/],
    ['text?colors=true', /unknown switch "colors"/],
    ['text?Speakers=true', /unknown switch "Speakers"/],
    ['text?speakers=true&speakers=false', /switch "speakers" is given more than once/],
    ['text?speakers', /switch "speakers" must be true or false \(or 1 \/ 0\), got ""/],
    ['text?speakers=', /switch "speakers" must be true or false/],
    ['text?speakers=yes', /got "yes"/],
    ['text?speakers=true=false', /got "true=false"/],
    ['text?speakers= true', /got " true"/],
    ['text?speakers=true?pauses=true', /got "true\?pauses=true"/],
    ['text?speakers=%74rue', /got "%74rue"/],
  ];
  for (const [header, detail] of rejected) {
    it(`should reject ${JSON.stringify(header)} as invalid_input naming the header`, () => {
      const error = rejection(header);
      expect(error.code).toBe('invalid_input');
      expect(error.param).toBe(OUTPUT_TRANSFORMERS_HEADER);
      expect(error.message).toMatch(detail);
      expect(error.message).toMatch(/^X-Service-Output-Transformers: .*\(spec 4\.4\)$/);
    });
  }
});
