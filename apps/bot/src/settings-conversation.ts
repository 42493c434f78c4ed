import type { Conversation } from '@grammyjs/conversations';
import {
  getBotUserSettings,
  POST_PROCESS_TYPE_NAMES,
  saveBotUserSettings,
  type BotOutputFormat,
  type BotUserSettings,
} from '@transcribe/core';
import type { BotContext, BotDeps, ConversationContext } from './bot-context.ts';
import { localeOf, translatorFor, type Translate } from './bot-i18n.ts';
import { languageFromTelegram } from './match-language.ts';
import {
  choiceKeyboard,
  DEFAULT_TYPE_CHOICES,
  describeSettings,
  formatChoices,
  knownVoicesChoices,
  languageQuestion as buildLanguageQuestion,
  parseSpeakersText,
  speakerChoices,
  typesKeyboard,
  type Choice,
} from './settings-choices.ts';

type SettingsConversation = Conversation<BotContext, ConversationContext>;
type Answer = { kind: 'button'; value: string; ctx: ConversationContext } | { kind: 'text'; text: string; ctx: ConversationContext };

/** One conversation in progress: whose it is and where it talks. */
interface Talk {
  conversation: SettingsConversation;
  ctx: ConversationContext;
  userId: number;
  /** The person's texts. */
  t: Translate;
}

/** The person's texts and bot language. */
interface Reader {
  t: Translate;
  locale: string;
}

/** A question with buttons; `parseText` accepts a typed answer too, `explain` answers one it did not take. */
interface Question {
  step: string;
  text: string;
  choices: readonly Choice[];
  parseText?: (text: string) => string | null;
  explain?: (text: string) => string;
}

/** A settings question left unanswered this long ends the conversation, ms. */
const ANSWER_TIMEOUT_MS = 15 * 60 * 1000;
/** Spec 8: at most 8 post-processing types. */
const MAX_TYPES = 8;

/**
 * The /settings conversation: recognition language, output format, default
 * post-processing types (only with a language model), the speaker count hint and whether the
 * voices they named are recognised (docs/speakers.md), one question at a time, then saved for the person. /cancel leaves without saving; another command or a
 * recording ends it and is handled as usual.
 */
export function createSettingsConversation(deps: BotDeps) {
  const { db } = deps.service.database;
  const languages = deps.service.engine.languages;
  /** The language question, the person's Telegram language and saved language first. */
  const languageQuestion = (reader: Reader, telegramLanguage: string | undefined, saved: string | null): Question => ({
    step: 'lang',
    ...buildLanguageQuestion(languages, reader, [languageFromTelegram(telegramLanguage), saved]),
  });
  return async function settings(conversation: SettingsConversation, ctx: ConversationContext): Promise<void> {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    const locale = localeOf(deps.locales, ctx.from);
    const reader: Reader = { t: translatorFor(deps.i18n, locale), locale };
    const { t } = reader;
    const talk: Talk = { conversation, ctx, userId, t };
    const current = await conversation.external(() => getBotUserSettings(db, String(userId)));
    await ctx.reply(t('settings-now', { settings: describeSettings(current, reader) }));
    const language = await ask(talk, languageQuestion(reader, ctx.from?.language_code, current.language));
    const format = await ask(talk, { step: 'fmt', text: t('settings-question-format'), choices: formatChoices(t) });
    const postProcess = deps.postProcess ? await askTypes(talk, current.postProcess) : current.postProcess;
    const speakers = await ask(talk, {
      step: 'spk',
      text: t('settings-question-speakers'),
      choices: speakerChoices(t),
      parseText: parseSpeakersText,
    });
    const knownVoices = await ask(talk, { step: 'kv', text: t('settings-question-voices'), choices: knownVoicesChoices(t) });
    const next: BotUserSettings = {
      language: language === 'auto' ? null : language,
      outputFormat: format as BotOutputFormat,
      postProcess,
      speakers: speakers === 'auto' ? null : Number(speakers),
      knownVoices: knownVoices === 'on',
    };
    await conversation.external(() => saveBotUserSettings(db, String(userId), next));
    await ctx.reply(t('settings-saved', { settings: describeSettings(next, reader) }));
  };
}

/** Asks one question and returns the chosen value; the question then shows the answer. */
async function ask(talk: Talk, question: Question): Promise<string> {
  const asked = await talk.ctx.reply(question.text, { reply_markup: choiceKeyboard(question.step, question.choices) });
  for (;;) {
    const answer = await waitForAnswer(talk, question.step);
    const value = answer.kind === 'button' ? answer.value : (question.parseText?.(answer.text) ?? null);
    const choice = question.choices.find((entry) => entry.value === value);
    if (value !== null && (choice || answer.kind === 'text')) {
      await answer.ctx.api.editMessageText(asked.chat.id, asked.message_id, `${question.text}\n→ ${choice?.label ?? value}`);
      return value;
    }
    const reply = answer.kind === 'text' && question.explain ? question.explain(answer.text) : talk.t('settings-pick-a-button');
    await answer.ctx.reply(reply);
  }
}

/** Toggles default post-processing types until Done; returns the chosen ones. */
async function askTypes(talk: Talk, initial: readonly string[]): Promise<string[]> {
  const { t } = talk;
  const question = t('settings-question-types', { max: MAX_TYPES });
  let selected = initial.filter((type) => (DEFAULT_TYPE_CHOICES as readonly string[]).includes(type));
  const asked = await talk.ctx.reply(question, { reply_markup: typesKeyboard(selected, t) });
  for (;;) {
    const answer = await waitForAnswer(talk, 'pp');
    if (answer.kind === 'text') {
      await answer.ctx.reply(t('settings-tap-then-done'));
      continue;
    }
    if (answer.value === 'done') {
      await answer.ctx.api.editMessageText(
        asked.chat.id,
        asked.message_id,
        `${question}\n→ ${t('settings-chosen', { count: selected.length })}`,
      );
      return selected;
    }
    const type = POST_PROCESS_TYPE_NAMES[Number(answer.value)];
    if (type === undefined || !DEFAULT_TYPE_CHOICES.includes(type)) continue;
    if (selected.includes(type)) selected = selected.filter((entry) => entry !== type);
    else if (selected.length < MAX_TYPES) selected = [...selected, type];
    await answer.ctx.api.editMessageReplyMarkup(asked.chat.id, asked.message_id, { reply_markup: typesKeyboard(selected, t) });
  }
}

/**
 * The next answer to question `step` from the person who asked for /settings: its button, or a
 * text message. Buttons of earlier questions are answered as closed; /cancel ends without saving;
 * other commands end the conversation and run; anything else (recordings, other buttons, other
 * people in a group) is handled outside while the question waits.
 */
async function waitForAnswer({ conversation, userId, t }: Talk, step: string): Promise<Answer> {
  for (;;) {
    const next = await conversation.wait({ maxMilliseconds: ANSWER_TIMEOUT_MS });
    if (next.from?.id !== userId) return conversation.skip({ next: true });
    const data = next.callbackQuery?.data;
    if (data?.startsWith(`set:${step}:`)) {
      await next.answerCallbackQuery();
      return { kind: 'button', value: data.slice(`set:${step}:`.length), ctx: next };
    }
    if (data?.startsWith('set:')) {
      await next.answerCallbackQuery({ text: t('settings-closed') });
      continue;
    }
    const text = next.message?.text;
    if (text !== undefined && /^\/cancel(@\w+)?$/.test(text.trim())) {
      await next.reply(t('settings-unchanged'));
      return conversation.halt();
    }
    if (text?.startsWith('/')) return conversation.halt({ next: true });
    if (text !== undefined) return { kind: 'text', text, ctx: next };
    return conversation.skip({ next: true });
  }
}
