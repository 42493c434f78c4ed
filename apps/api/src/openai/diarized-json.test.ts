import { describe, expect, it } from 'vitest';
import { renderAudioResponse, type AudioAnswer } from './render-audio-response.ts';

const segment = (start: number, speaker: string | null, text: string) => ({
  start,
  end: start + 1,
  text,
  speaker,
  language: 'en',
  words: [],
});

describe('response_format diarized_json (openai-node TranscriptionDiarized)', () => {
  const answer: AudioAnswer = {
    task: 'transcribe',
    language: 'en',
    duration: 9.5,
    segments: [
      segment(0, 'SPEAKER_1', 'hello'),
      segment(1, 'Ann', 'hi'),
      segment(2, 'SPEAKER_2', 'yes'),
      segment(3, 'SPEAKER_1', 'ok'),
      segment(4, 'SPEAKER_3', ' '),
    ],
    srt: '',
    namedSpeakers: new Set(['Ann']),
  };

  it('should answer OpenAI shape: string ids, letters by first appearance, known names as given, usage in seconds', () => {
    const rendered = renderAudioResponse(answer, 'diarized_json', ['segment']);
    expect(rendered.contentType).toBe('application/json');
    expect(JSON.parse(rendered.body)).toEqual({
      task: 'transcribe',
      duration: 9.5,
      text: 'hello hi yes ok',
      segments: [
        { type: 'transcript.text.segment', id: 'seg_001', start: 0, end: 1, speaker: 'A', text: 'hello' },
        { type: 'transcript.text.segment', id: 'seg_002', start: 1, end: 2, speaker: 'Ann', text: 'hi' },
        { type: 'transcript.text.segment', id: 'seg_003', start: 2, end: 3, speaker: 'B', text: 'yes' },
        { type: 'transcript.text.segment', id: 'seg_004', start: 3, end: 4, speaker: 'A', text: 'ok' },
      ],
      usage: { type: 'duration', seconds: 9.5 },
    });
  });

  it('should label a transcript without diarization all A', () => {
    const body = JSON.parse(
      renderAudioResponse({ ...answer, segments: [segment(0, null, 'x'), segment(1, null, 'y')] }, 'diarized_json', []).body,
    );
    expect(body.segments.map((s: { speaker: string }) => s.speaker)).toEqual(['A', 'A']);
  });
});
