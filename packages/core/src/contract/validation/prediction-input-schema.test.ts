import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from './expect-invalid-input.test-helper.ts';
import {
  buildPredictionInputSchema,
  IGNORED_INPUT_PARAMETERS,
  PREDICTION_INPUT_PARAMETERS,
  PREDICTION_INPUT_RULES,
} from './prediction-input-schema.ts';

const INPUT_RULES_DOC = readFileSync(new URL('../../../../../docs/input-rules.md', import.meta.url), 'utf8');

/** The section of docs/input-rules.md that starts at `heading`, up to the next heading. */
function section(heading: string): string {
  const start = INPUT_RULES_DOC.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  return INPUT_RULES_DOC.slice(start + heading.length).split(/\n#/)[0]!;
}

describe('the parameter list of spec 2.2, written once (PARAMETER_SCHEMAS)', () => {
  it('should check the rules in the order docs/input-rules.md documents', () => {
    const documented = [...section('## Order of checks').matchAll(/^\d+\. (.+)$/gm)].map(([, item]) => {
      if (item!.startsWith('`input`')) return 'input';
      if (item!.startsWith('a language model is configured')) return 'language_model';
      return /^`([a-z_]+)`$/.exec(item!)![1];
    });
    expect(documented).toHaveLength(19);
    expect(PREDICTION_INPUT_RULES).toEqual(documented);
  });

  it('should ignore the parameters docs/input-rules.md names as ignored', () => {
    const documented = [...section('### Ignored parameters').matchAll(/`([a-z_]+)`/g)].map(([, name]) => name);
    expect(documented).toHaveLength(8);
    expect([...IGNORED_INPUT_PARAMETERS]).toEqual(documented);
  });

  it('should read exactly the listed parameters, in their order, and audio only when it is read', () => {
    expect(Object.keys(buildPredictionInputSchema({ ...OPTIONS, readsAudio: true }).in.shape)).toEqual(PREDICTION_INPUT_PARAMETERS);
    expect(Object.keys(buildPredictionInputSchema({ ...OPTIONS, readsAudio: false }).in.shape)).toEqual(
      PREDICTION_INPUT_PARAMETERS.filter((name) => name !== 'audio'),
    );
  });
});
