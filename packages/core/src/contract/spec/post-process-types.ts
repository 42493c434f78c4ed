/**
 * The post-processing types of spec 2.4 as data, and the names `post_process` must refuse
 * (spec 4.5 rule 1: "unknown type or an internal name").
 */
export const POST_PROCESS_TYPE_NAMES = [
  'summary',
  'gist',
  'detailed',
  'meeting_minutes',
  'lecture_notes',
  'simple',
  'key_facts',
  'action_items',
  'chapters',
  'blog_post',
  'article',
  'quiz',
  'customer_insights',
  'clean_up',
  'translation',
  'translated_subtitles',
  'custom',
  'speaker_names',
] as const;
export type PostProcessType = (typeof POST_PROCESS_TYPE_NAMES)[number];

export interface PostProcessTypeInfo {
  readonly type: PostProcessType;
  /** The "Result" column of spec 2.4. */
  readonly result: string;
}

/** Spec 2.4, verbatim, in table order (18 entries). */
export const POST_PROCESS_TYPES: readonly PostProcessTypeInfo[] = [
  { type: 'summary', result: 'Short summary.' },
  { type: 'gist', result: 'Essence in one paragraph.' },
  { type: 'detailed', result: 'Detailed retelling.' },
  { type: 'meeting_minutes', result: 'Meeting minutes.' },
  { type: 'lecture_notes', result: 'Lecture notes, in Russian.' },
  { type: 'simple', result: 'Simple explanation.' },
  { type: 'key_facts', result: 'Key facts.' },
  { type: 'action_items', result: 'Tasks and next steps.' },
  { type: 'chapters', result: 'Topic time codes.' },
  { type: 'blog_post', result: 'Blog post.' },
  { type: 'article', result: 'Article based on the recording.' },
  { type: 'quiz', result: 'Quiz.' },
  { type: 'customer_insights', result: 'Customer needs and problems.' },
  { type: 'clean_up', result: 'Edited transcript.' },
  { type: 'translation', result: 'Translation of the transcript into target_language.' },
  { type: 'translated_subtitles', result: 'Translated SRT subtitles.' },
  { type: 'custom', result: 'Result of custom_prompt (up to 8192 characters).' },
  { type: 'speaker_names', result: 'Map of labels to names, or null.' },
];

/** Spec 2.4: "Up to 8 different types run in parallel"; spec 8: at most 8, unique. */
export const MAX_POST_PROCESS_TYPES = 8;

/** Types that need `target_language` (spec 2.2, 4.5 rule 2). */
export const TYPES_NEEDING_TARGET_LANGUAGE: readonly PostProcessType[] = ['translation', 'translated_subtitles'];

/** Types that need `custom_prompt` (spec 2.2, 4.5 rule 2). */
export const TYPES_NEEDING_CUSTOM_PROMPT: readonly PostProcessType[] = ['custom'];

/**
 * Names of internal steps and output formats that look like post-processing types but must be
 * refused in `post_process` (spec 4.5 rule 1). Output formats come first: spec 2.2 says
 * "SRT and LRC are formats, not post-processing types", so the detail points to output_format.
 */
export const OUTPUT_FORMAT_LOOKALIKES: ReadonlySet<string> = new Set(['json', 'json2', 'text', 'srt', 'lrc']);

/** Every refused internal name, output-format look-alikes included. */
export const INTERNAL_POST_PROCESS_NAMES: ReadonlySet<string> = new Set([
  ...OUTPUT_FORMAT_LOOKALIKES,
  'transcript',
  'transcription',
  'transcribe',
  'recognition',
  'asr',
  'results',
  'source',
  'segments',
  'words',
  'vad',
  'diarization',
  'speakers',
  'language',
  'languages',
  'download',
]);

const TYPE_SET: ReadonlySet<string> = new Set(POST_PROCESS_TYPE_NAMES);

/** True when `name` is exactly (case-sensitively) one of the 18 types of spec 2.4. */
export function isPostProcessType(name: string): name is PostProcessType {
  return TYPE_SET.has(name);
}
