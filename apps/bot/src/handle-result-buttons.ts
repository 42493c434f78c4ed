import { Composer } from 'grammy';
import {
  AppError, findOwnedPrediction, telegramOwner, TYPES_NEEDING_TARGET_LANGUAGE, type Transcript,
} from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { deliverResult } from './deliver-result.ts';
import { isEmptyTranscript } from './render-chat-transcript.ts';
import { NO_LANGUAGE_MODEL_REPLY, replyForError } from './reply-for-error.ts';
import { languageKeyboard, parseResultAction, resultKeyboard, type ResultAction } from './result-buttons.ts';

/**
 * Buttons under a transcript (result-buttons.ts): "More…" and the language picker edit the
 * keyboard in place; a type runs post-processing (spec 2.4) on the stored transcript of the
 * person's own bot prediction (namespace `bot`, spec 2.6.6) in the background.
 */
export function handleResultButtons(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(/^p[pmlt]:/, async (ctx) => {
    const action = parseResultAction(ctx.callbackQuery.data);
    if (!action) return void (await ctx.answerCallbackQuery({ text: 'This button no longer works.' }));
    if (!deps.postProcess) return void (await ctx.answerCallbackQuery({ text: NO_LANGUAGE_MODEL_REPLY, show_alert: true }));
    if (action.action === 'more') {
      await ctx.editMessageReplyMarkup({ reply_markup: resultKeyboard(action.predictionId, true) });
      return void (await ctx.answerCallbackQuery());
    }
    const needsLanguage = TYPES_NEEDING_TARGET_LANGUAGE.includes(action.type);
    if (action.action === 'languages' || (needsLanguage && action.targetLanguage === null)) {
      const page = action.action === 'languages' ? action.page : 0;
      await ctx.editMessageReplyMarkup({ reply_markup: languageKeyboard(action.predictionId, action.type, page) });
      return void (await ctx.answerCallbackQuery({ text: 'Pick the language.' }));
    }
    await ctx.answerCallbackQuery({ text: await startResult(deps, ctx, action) });
    if (needsLanguage) await ctx.editMessageReplyMarkup({ reply_markup: resultKeyboard(action.predictionId) });
  });
  return composer;
}

/** Checks the prediction and starts the job; returns the short answer shown on the button press. */
async function startResult(deps: BotDeps, ctx: BotContext, action: Extract<ResultAction, { action: 'run' }>): Promise<string> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return 'This button works only in a chat.';
  try {
    const owner = telegramOwner(ctx.from?.id ?? 0);
    const row = await findOwnedPrediction(deps.service.database.db, action.predictionId, { owner, namespace: 'bot' });
    const transcript = row.transcript as Transcript | null;
    if (row.status !== 'succeeded' || !transcript || isEmptyTranscript(transcript)) throw new AppError('not_found', 'no transcript');
    const job = { chatId, replyTo: ctx.callbackQuery?.message?.message_id, transcript, type: action.type, targetLanguage: action.targetLanguage };
    if (!deps.jobs.tryRun((signal) => deliverResult(deps, job, signal))) throw new AppError('service_busy', 'bot full');
    return 'Working on it…';
  } catch (error) {
    const text = replyForError(error, deps.settings);
    await ctx.reply(text);
    return text.slice(0, 200);
  }
}
