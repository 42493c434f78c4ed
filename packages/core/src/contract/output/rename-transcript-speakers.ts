import type { Transcript } from './transcript-model.ts';

/**
 * The transcript with speakers renamed (the portal's "rename a speaker", docs/portal.md): every
 * segment's `speaker`, every `speakers[].label` and every `voices[].label` found in `names` takes its
 * name; labels not in `names` stay. Pure: the stored transcript is not changed.
 * @param names transcript label → name shown (e.g. `{SPEAKER_1: "Ann Lee"}`); null or empty: the transcript as it is.
 */
export function renameTranscriptSpeakers(transcript: Transcript, names: Readonly<Record<string, string>> | null): Transcript {
  if (!names || Object.keys(names).length === 0) return transcript;
  const rename = (label: string): string => (Object.hasOwn(names, label) ? names[label]! : label);
  return {
    ...transcript,
    segments: transcript.segments.map((segment) => (segment.speaker === null ? segment : { ...segment, speaker: rename(segment.speaker) })),
    speakers: transcript.speakers.map((speaker) => ({ ...speaker, label: rename(speaker.label) })),
    ...(transcript.voices ? { voices: transcript.voices.map((voice) => ({ ...voice, label: rename(voice.label) })) } : {}),
  };
}
