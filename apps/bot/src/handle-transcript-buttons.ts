import { Composer } from 'grammy';
import { AppError, findOwnedPrediction, telegramOwner, type PredictionRow, type Transcript } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { localeOf, textsFor, type Translate } from './bot-i18n.ts';
import { formatDateTime, formatDuration, recordingTitle } from './describe-recording.ts';
import { sendChatText } from './chat-text.ts';
import { findMedia } from './find-media.ts';
import { isEmptyTranscript } from './render-chat-transcript.ts';
import { renderTranscriptFile, type FileHeading } from './render-transcript-file.ts';
import { replyForError } from './reply-for-error.ts';
import { parseResultAction, resultKeyboard, severalSpeakers, speakersKeyboard, type ResultAction } from './result-buttons.ts';
import { transcribeMedia } from './transcribe-media.ts';

/**
 * Buttons under a transcript that need no language model (result-buttons.ts): a file format
 * (`.txt`, `.srt`, `.docx`, `.pdf`) sends the stored transcript as that file; "Speakers…" shows
 * the re-run choices; "Re-run with N speakers" transcribes the same recording again with that
 * speaker count for this once: the person's /settings stay as they are, because one recording
 * with an unusual number of voices says nothing about the next. Only the person whose transcript
 * it is can use them (namespace `bot`, spec 2.6.6).
 */
export function handleTranscriptButtons(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(/^p[fsbr]:/, async (ctx) => {
    const t = textsFor(deps, ctx.from);
    const action = parseResultAction(ctx.callbackQuery.data);
    if (!action) return void (await ctx.answerCallbackQuery({ text: t('button-gone') }));
    const postProcess = deps.postProcess !== null;
    if (action.action === 'speakers') {
      await ctx.editMessageReplyMarkup({ reply_markup: speakersKeyboard(action.predictionId, t) });
      return void (await ctx.answerCallbackQuery({ text: t('speakers-hint') }));
    }
    if (action.action === 'back') {
      const nameSpeakers = await canNameSpeakers(deps, ctx.from.id, action.predictionId);
      await ctx.editMessageReplyMarkup({ reply_markup: resultKeyboard(action.predictionId, { postProcess, nameSpeakers, t }) });
      return void (await ctx.answerCallbackQuery());
    }
    if (action.action === 'file') return void (await sendFile(deps, ctx, action, t));
    if (action.action === 'rerun') {
      await ctx.answerCallbackQuery({ text: await startRerun(deps, ctx, action, t) });
      const nameSpeakers = await canNameSpeakers(deps, ctx.from.id, action.predictionId);
      await ctx.editMessageReplyMarkup({ reply_markup: resultKeyboard(action.predictionId, { postProcess, nameSpeakers, t }) });
    }
  });
  return composer;
}

/**
 * Whether "Name speakers" belongs under the transcript of prediction `predictionId` when its
 * keyboard is drawn again: the person's own transcript with two or more speakers (severalSpeakers).
 */
export async function canNameSpeakers(deps: BotDeps, userId: number, predictionId: string): Promise<boolean> {
  try {
    const row = await findOwnedPrediction(deps.service.database.db, predictionId, { owner: telegramOwner(userId), namespace: 'bot' });
    return row.status === 'succeeded' && row.transcript !== null && severalSpeakers(row.transcript);
  } catch {
    return false;
  }
}

/** The person's own transcribed prediction, or AppError `not_found`. */
async function ownTranscript(
  deps: BotDeps,
  ctx: BotContext,
  predictionId: string,
): Promise<{ row: PredictionRow; transcript: Transcript }> {
  const owner = telegramOwner(ctx.from?.id ?? 0);
  const row = await findOwnedPrediction(deps.service.database.db, predictionId, { owner, namespace: 'bot' });
  const transcript = row.transcript;
  if (row.status !== 'succeeded' || !transcript || isEmptyTranscript(transcript)) throw new AppError('not_found', 'no transcript');
  return { row, transcript };
}

async function sendFile(deps: BotDeps, ctx: BotContext, action: Extract<ResultAction, { action: 'file' }>, t: Translate): Promise<void> {
  const chatId = ctx.chat?.id;
  const replyTo = ctx.callbackQuery?.message?.message_id;
  try {
    if (chatId === undefined) throw new AppError('not_found', 'no chat');
    const { transcript } = await ownTranscript(deps, ctx, action.predictionId);
    await ctx.answerCallbackQuery({ text: t('making-file') });
    const file = await renderTranscriptFile(transcript, action.format, fileBaseName(ctx), t, fileHeading(deps, ctx, transcript, t));
    await sendChatText(deps.api, chatId, { kind: 'document', ...file }, { replyTo });
  } catch (error) {
    const text = replyForError(error, deps.settings, t);
    await ctx.answerCallbackQuery({ text: text.slice(0, 200) }).catch(() => undefined);
    await ctx.reply(text);
  }
}

/** Starts the re-run in the background; returns the short answer shown on the button press. */
async function startRerun(
  deps: BotDeps,
  ctx: BotContext,
  action: Extract<ResultAction, { action: 'rerun' }>,
  t: Translate,
): Promise<string> {
  const message = ctx.callbackQuery?.message;
  const chatId = ctx.chat?.id;
  const userId = ctx.from?.id;
  try {
    if (chatId === undefined || userId === undefined || !message) throw new AppError('not_found', 'no chat');
    await ownTranscript(deps, ctx, action.predictionId);
    // The transcript answers the recording, and Telegram sends that message along with the button's.
    const original = 'reply_to_message' in message ? message.reply_to_message : undefined;
    const media = original ? findMedia(original) : null;
    if (!original || !media || media === 'unsupported') {
      await ctx.reply(t('recording-gone'));
      return t('recording-gone').slice(0, 200);
    }
    const job = {
      chatId,
      threadId: message.message_thread_id ?? null,
      userId,
      messageId: original.message_id,
      media,
      speakers: action.speakers,
      sentAt: new Date(original.date * 1000),
    };
    if (!deps.jobs.tryRun((signal) => transcribeMedia(deps, job, signal))) throw new AppError('service_busy', 'bot stopping');
    return t('rerun-started', { count: action.speakers });
  } catch (error) {
    const text = replyForError(error, deps.settings, t);
    await ctx.reply(text);
    return text.slice(0, 200);
  }
}

/**
 * The heading of a .docx or .pdf: the recording the transcript answers (its file name, or "Voice
 * message"), the date its message was sent (UTC) and its length.
 */
function fileHeading(deps: BotDeps, ctx: BotContext, transcript: Transcript, t: Translate): FileHeading {
  const message = ctx.callbackQuery?.message;
  const original = message && 'reply_to_message' in message ? message.reply_to_message : undefined;
  const media = original ? findMedia(original) : null;
  const title = media && media !== 'unsupported' ? recordingTitle(media.fileName, t) : t('recording-unnamed');
  const sentAt = original ? new Date(original.date * 1000) : new Date();
  const date = formatDateTime(sentAt, localeOf(deps.locales, ctx.from));
  return { title, details: t('file-heading-details', { date, duration: formatDuration(transcript.source.length) }) };
}

/** The recording's file name without extension (`voice`, `talk`), from the message the transcript answers; else `transcript`. */
function fileBaseName(ctx: BotContext): string {
  const message = ctx.callbackQuery?.message;
  const original = message && 'reply_to_message' in message ? message.reply_to_message : undefined;
  const media = original ? findMedia(original) : null;
  const name = media && media !== 'unsupported' ? media.fileName : '';
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).replace(/\s+/g, '_') || 'transcript';
}
