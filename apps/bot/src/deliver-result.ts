import type { PostProcessType, Transcript } from '@transcribe/core';
import type { BotDeps } from './bot-context.ts';
import { translatorFor, type Translate } from './bot-i18n.ts';
import { asChatText, sendChatText } from './chat-text.ts';
import { replyForError } from './reply-for-error.ts';
import { typeLabel } from './result-buttons.ts';
import { languageLabel } from './match-language.ts';
import { openStatusMessage } from './status-message.ts';

export interface ResultJob {
  chatId: number;
  /** Message the result answers (the transcript), or undefined. */
  replyTo: number | undefined;
  transcript: Transcript;
  type: PostProcessType;
  targetLanguage: string | null;
  /** The reader's texts and bot language; English when absent. */
  t?: Translate;
  locale?: string;
}

/**
 * Makes one post-processing result (spec 2.4) and shows it: a status message (`⏳ Summary…`,
 * then `✅ Summary` or a plain-words failure), then the result as messages or, when long, a file.
 * Needs `deps.postProcess`.
 */
export async function deliverResult(deps: BotDeps, job: ResultJob, signal: AbortSignal): Promise<void> {
  const t = job.t ?? translatorFor(deps.i18n, 'en');
  const title = resultTitle(job.type, job.targetLanguage, t, job.locale ?? 'en');
  const status = await openStatusMessage(deps.api, job.chatId, job.replyTo, t('result-working', { title }));
  try {
    if (!deps.postProcess) throw new Error('post-processing requested without a runner');
    const request = { transcript: job.transcript, type: job.type, targetLanguage: job.targetLanguage, signal };
    const result = await deps.postProcess(request);
    await status.update(t('result-done', { title }), true);
    const extension = job.type === 'translated_subtitles' ? 'srt' : 'txt';
    const fileName = `${job.type}${job.targetLanguage ? `.${job.targetLanguage}` : ''}.${extension}`;
    await sendChatText(deps.api, job.chatId, asChatText(formatResult(job.type, result, t), fileName, t), { replyTo: status.messageId });
  } catch (error) {
    const reply = signal.aborted ? t('error-stopped') : replyForError(error, deps.settings, t);
    await status.update(t('result-failed', { title, reply }), true);
  }
}

/** `Summary`, `Translation (German)`, `Перевод (Немецкий)`. */
export function resultTitle(type: PostProcessType, targetLanguage: string | null, t: Translate, locale: string): string {
  const label = typeLabel(type, t);
  return targetLanguage ? t('result-title-language', { title: label, language: languageLabel(targetLanguage, locale) }) : label;
}

/** A result as chat text: strings as they are, the speaker map (spec 2.3.7) as lines. */
export function formatResult(type: PostProcessType, result: unknown, t: Translate): string {
  if (type === 'speaker_names') {
    if (result === null || typeof result !== 'object' || Object.keys(result).length === 0) return t('no-speaker-names');
    return Object.entries(result as Record<string, unknown>)
      .map(([label, name]) => `${label} → ${String(name)}`)
      .join('\n');
  }
  if (typeof result === 'string') return result.trim() === '' ? t('result-empty') : result;
  return JSON.stringify(result, null, 2);
}
