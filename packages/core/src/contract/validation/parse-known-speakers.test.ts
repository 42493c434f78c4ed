import { describe, expect, it } from 'vitest';
import { parseKnownSpeakers } from './known-voices-schema.ts';

const ref = 'data:audio/wav;base64,UklGRg==';

describe("parseKnownSpeakers (OpenAI's known_speaker_names[] + known_speaker_references[])", () => {
  it('should pair repeated parts and JSON array strings alike', () => {
    expect(parseKnownSpeakers(['agent', 'customer'], [ref, ref])).toEqual([
      { name: 'agent', dataUrl: ref },
      { name: 'customer', dataUrl: ref },
    ]);
    expect(parseKnownSpeakers(['["agent","customer"]'], [JSON.stringify([ref, ref])])).toHaveLength(2);
    expect(parseKnownSpeakers([], [])).toEqual([]);
  });

  it.each([
    [['a', 'b'], [ref], /must pair up: got 2 names and 1 references/],
    [['a', 'b', 'c', 'd', 'e'], [ref, ref, ref, ref, ref], /At most 4 known speakers/],
    [['a'], ['https://x/a.wav'], /must be a data: URL of 2–10 s/],
    [[''], [ref], /1 to 64 characters/],
    [['a', 'a'], [ref, ref], /names a speaker twice/],
    [['[1,2]'], [ref], /must be strings/],
  ])('should refuse %j / %j', (names, references, message) => {
    expect(() => parseKnownSpeakers(names, references)).toThrow(message);
  });
});
