import { Composer } from 'grammy';
import { AppError, findOwnedPrediction, telegramOwner, TYPES_NEEDING_TARGET_LANGUAGE, type PostProcessType } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { localeOf, textsFor } from './bot-i18n.ts';
import { deliverResult } from './deliver-result.ts';
import { canNameSpeakers, handleTranscriptButtons } from './handle-transcript-buttons.ts';
import { languageFromTelegram, matchLanguage } from './match-language.ts';
import { isEmptyTranscript } from './render-chat-transcript.ts';
import { replyForError } from './reply-for-error.ts';
import { languageKeyboard, parseResultAction, resultKeyboard } from './result-buttons.ts';

/** A language picker waiting for a typed answer, ms: after this, text is treated as usual again. */
const TYPED_LANGUAGE_WAIT_MS = 10 * 60 * 1000;
/** Recent target languages kept per person (shown first in the picker). */
const RECENT_LANGUAGES = 3;
/** People whose picker state is kept at most; the oldest is forgotten first (memory stays bounded). */
const MAX_PEOPLE = 10_000;

/** A post-processing run asked for: which transcript, which type, into which language. */
interface ResultRequest {
  predictionId: string;
  type: PostProcessType;
  targetLanguage: string | null;
}

/** An open target-language picker: which transcript and type, and the message it is under. */
interface OpenPicker {
  predictionId: string;
  type: PostProcessType;
  messageId: number;
  openedAt: number;
}

/**
 * Buttons under a transcript (result-buttons.ts): "More…" and the language picker edit the
 * keyboard in place; a type runs post-processing (spec 2.4) on the stored transcript of the
 * person's own bot prediction (namespace `bot`, spec 2.6.6) in the background.
 *
 * The target-language picker lists the person's recent choices, their Telegram and bot languages and
 * the most common targets first (result-buttons.ts targetLanguageOrder),
 * and while it is open the person may type the language instead (`German`, `deutsch`, `de`,
 * match-language.ts): paging through 100 names is slow. In a group only a reply to the picker's
 * message counts, so the bot does not read the group's talk as language names. Open pickers and recent choices live in
 * this handler's memory (at most MAX_PEOPLE people), so a restart forgets them. The buttons that
 * need no language model (file formats, re-run with N speakers) are handled first
 * (handle-transcript-buttons.ts).
 */
export function handleResultButtons(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const pickers = new Map<string, OpenPicker>();
  const recent = new Map<number, string[]>();
  const remember = <T>(map: Map<T, unknown>, key: T) => {
    if (map.size > MAX_PEOPLE) map.delete(map.keys().next().value as T);
    return key;
  };
  // Recent choices first (people translate into the same language again), then the person's own languages.
  const preferred = (ctx: BotContext): string[] => {
    const own = languageFromTelegram(ctx.from?.language_code);
    const bot = localeOf(deps.locales, ctx.from);
    return [...new Set([...(recent.get(ctx.from?.id ?? 0) ?? []), ...(own ? [own] : []), bot])];
  };
  const chose = (userId: number, code: string) => {
    const list = [code, ...(recent.get(userId) ?? []).filter((entry) => entry !== code)].slice(0, RECENT_LANGUAGES);
    recent.delete(userId);
    recent.set(remember(recent, userId), list);
  };

  // "◀ Back" closes the picker: typed text is no longer read as a language.
  composer.callbackQuery(/^pb:/, (ctx, next) => {
    pickers.delete(`${ctx.chat?.id}:${ctx.from.id}`);
    return next();
  });
  composer.use(handleTranscriptButtons(deps));

  composer.callbackQuery(/^p[pmlt]:/, async (ctx) => {
    const t = textsFor(deps, ctx.from);
    const action = parseResultAction(ctx.callbackQuery.data);
    if (!action) return void (await ctx.answerCallbackQuery({ text: t('button-gone') }));
    if (!deps.postProcess) return void (await ctx.answerCallbackQuery({ text: t('error-no-language-model'), show_alert: true }));
    if (action.action === 'more') {
      const nameSpeakers = await canNameSpeakers(deps, ctx.from.id, action.predictionId);
      await ctx.editMessageReplyMarkup({ reply_markup: resultKeyboard(action.predictionId, { all: true, nameSpeakers, t }) });
      return void (await ctx.answerCallbackQuery());
    }
    if (action.action !== 'run' && action.action !== 'languages') return void (await ctx.answerCallbackQuery());
    const needsLanguage = TYPES_NEEDING_TARGET_LANGUAGE.includes(action.type);
    const key = `${ctx.chat?.id}:${ctx.from?.id}`;
    if (action.action === 'languages' || (needsLanguage && action.targetLanguage === null)) {
      const page = action.action === 'languages' ? action.page : 0;
      const reader = { t, locale: localeOf(deps.locales, ctx.from), preferred: preferred(ctx) };
      await ctx.editMessageReplyMarkup({ reply_markup: languageKeyboard(action.predictionId, action.type, page, reader) });
      const messageId = ctx.callbackQuery.message?.message_id ?? 0;
      pickers.delete(key);
      pickers.set(remember(pickers, key), { predictionId: action.predictionId, type: action.type, messageId, openedAt: Date.now() });
      return void (await ctx.answerCallbackQuery({ text: t('pick-language') }));
    }
    pickers.delete(key);
    if (action.targetLanguage && ctx.from) chose(ctx.from.id, action.targetLanguage);
    await ctx.answerCallbackQuery({ text: await startResult(deps, ctx, action, ctx.callbackQuery.message?.message_id) });
    if (needsLanguage) {
      const nameSpeakers = await canNameSpeakers(deps, ctx.from.id, action.predictionId);
      await ctx.editMessageReplyMarkup({ reply_markup: resultKeyboard(action.predictionId, { nameSpeakers, t }) });
    }
  });

  composer.on('message:text', async (ctx, next) => {
    const key = `${ctx.chat.id}:${ctx.from.id}`;
    const picker = pickers.get(key);
    if (!picker || ctx.message.text.startsWith('/') || !deps.postProcess) return next();
    // In a group people talk among themselves: only a reply to the picker's message is an answer there.
    if (ctx.chat.type !== 'private' && ctx.message.reply_to_message?.message_id !== picker.messageId) return next();
    if (Date.now() - picker.openedAt > TYPED_LANGUAGE_WAIT_MS) {
      pickers.delete(key);
      return next();
    }
    const t = textsFor(deps, ctx.from);
    const code = matchLanguage(ctx.message.text);
    if (!code) return void (await ctx.reply(t('unknown-language'), { reply_parameters: { message_id: ctx.message.message_id } }));
    pickers.delete(key);
    chose(ctx.from.id, code);
    const text = await startResult(
      deps,
      ctx,
      { predictionId: picker.predictionId, type: picker.type, targetLanguage: code },
      picker.messageId,
    );
    if (text !== t('working-on-it')) return;
    const nameSpeakers = await canNameSpeakers(deps, ctx.from.id, picker.predictionId);
    await ctx.api
      .editMessageReplyMarkup(ctx.chat.id, picker.messageId, { reply_markup: resultKeyboard(picker.predictionId, { nameSpeakers, t }) })
      .catch(() => undefined);
  });
  return composer;
}

/**
 * Checks the prediction and starts the job, answering `replyTo`; returns the short answer shown
 * on the button press (`Working on it…`, or the failure, which is also sent to the chat).
 */
async function startResult(deps: BotDeps, ctx: BotContext, request: ResultRequest, replyTo: number | undefined): Promise<string> {
  const chatId = ctx.chat?.id;
  const t = textsFor(deps, ctx.from);
  if (chatId === undefined) return t('button-gone');
  try {
    const owner = telegramOwner(ctx.from?.id ?? 0);
    const row = await findOwnedPrediction(deps.service.database.db, request.predictionId, { owner, namespace: 'bot' });
    const transcript = row.transcript;
    if (row.status !== 'succeeded' || !transcript || isEmptyTranscript(transcript)) throw new AppError('not_found', 'no transcript');
    const job = {
      chatId,
      replyTo,
      transcript,
      type: request.type,
      targetLanguage: request.targetLanguage,
      t,
      locale: localeOf(deps.locales, ctx.from),
    };
    if (!deps.jobs.tryRun((signal) => deliverResult(deps, job, signal))) throw new AppError('service_busy', 'bot full');
    return t('working-on-it');
  } catch (error) {
    const text = replyForError(error, deps.settings, t);
    await ctx.reply(text);
    return text.slice(0, 200);
  }
}
