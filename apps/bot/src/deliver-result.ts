import { LANGUAGES, type PostProcessType, type Transcript } from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { asChatText, sendChatText } from './chat-text.ts';
import { replyForError, STOPPED_REPLY } from './reply-for-error.ts';
import { POST_PROCESS_LABELS } from './result-buttons.ts';
import { openStatusMessage } from './status-message.ts';

export interface ResultJob {
  chatId: number;
  /** Message the result answers (the transcript), or undefined. */
  replyTo: number | undefined;
  transcript: Transcript;
  type: PostProcessType;
  targetLanguage: string | null;
}

/**
 * Makes one post-processing result (spec 2.4) and shows it: a status message (`⏳ Summary…`,
 * then `✅ Summary` or a plain-words failure), then the result as messages or, when long, a file.
 * Needs `deps.postProcess`.
 */
export async function deliverResult(deps: BotDeps, job: ResultJob, signal: AbortSignal): Promise<void> {
  const title = resultTitle(job.type, job.targetLanguage);
  const status = await openStatusMessage(deps.api, job.chatId, job.replyTo, `⏳ ${title}: working on it…`);
  try {
    if (!deps.postProcess) throw new Error('post-processing requested without a runner');
    const request = { transcript: job.transcript, type: job.type, targetLanguage: job.targetLanguage, signal };
    const result = await deps.postProcess(request);
    await status.update(`✅ ${title}`, true);
    const extension = job.type === 'translated_subtitles' ? 'srt' : 'txt';
    const fileName = `${job.type}${job.targetLanguage ? `.${job.targetLanguage}` : ''}.${extension}`;
    await sendChatText(deps.api, job.chatId, asChatText(formatResult(job.type, result), fileName), { replyTo: status.messageId });
  } catch (error) {
    await status.update(`${title}: ${signal.aborted ? STOPPED_REPLY : replyForError(error, deps.settings)}`, true);
  }
}

/** `Summary`, `Translation (German)`. */
export function resultTitle(type: PostProcessType, targetLanguage: string | null): string {
  const label = POST_PROCESS_LABELS[type] ?? type;
  const language = LANGUAGES.find((entry) => entry.code === targetLanguage)?.name;
  return language ? `${label} (${language})` : label;
}

/** A result as chat text: strings as they are, the speaker map (spec 2.3.7) as lines. */
export function formatResult(type: PostProcessType, result: unknown): string {
  if (type === 'speaker_names') {
    if (result === null || typeof result !== 'object' || Object.keys(result).length === 0) return 'No speaker names were found.';
    return Object.entries(result as Record<string, unknown>).map(([label, name]) => `${label} → ${String(name)}`).join('\n');
  }
  if (typeof result === 'string') return result.trim() === '' ? 'The result is empty.' : result;
  return JSON.stringify(result, null, 2);
}
