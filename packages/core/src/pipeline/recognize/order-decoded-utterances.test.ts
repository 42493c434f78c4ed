import { describe, expect, it } from 'vitest';
import { orderDecodedUtterances } from './order-decoded-utterances.ts';
import type { RecognizedSegment } from './recognition-engine.ts';

const segment = (text: string): RecognizedSegment => ({ start: 0, end: 1, text, words: [], language: 'en' });

describe('orderDecodedUtterances', () => {
  it('emits utterances in recording order whatever order they were decoded in, each once', () => {
    const emitted: string[] = [];
    const report = orderDecodedUtterances((segments) => emitted.push(segments.map((s) => s.text).join('+') || '(none)'));
    report({ index: 2, count: 4, segments: [segment('c')] });
    expect(emitted).toEqual([]);
    report({ index: 0, count: 4, segments: [segment('a1'), segment('a2')] });
    expect(emitted).toEqual(['a1+a2']);
    report({ index: 1, count: 4, segments: [] });
    expect(emitted).toEqual(['a1+a2', '(none)', 'c']);
    report({ index: 1, count: 4, segments: [segment('again')] });
    report({ index: 9, count: 4, segments: [segment('out of range')] });
    report({ index: 3, count: 4, segments: [segment('d')] });
    expect(emitted).toEqual(['a1+a2', '(none)', 'c', 'd']);
  });
});
