import type { Conversation } from '@grammyjs/conversations';
import {
  getBotUserSettings, POST_PROCESS_TYPE_NAMES, saveBotUserSettings, type BotOutputFormat, type BotUserSettings,
} from '@transcribe/core';
import type { BotContext, BotDeps, ConversationContext } from './bot-context.ts';
import { languageFromTelegram } from './match-language.ts';
import {
  choiceKeyboard, DEFAULT_TYPE_CHOICES, describeSettings, FORMAT_CHOICES, languageChoices, parseLanguageText,
  parseSpeakersText, SPEAKER_CHOICES, typesKeyboard, type Choice,
} from './settings-choices.ts';

type SettingsConversation = Conversation<BotContext, ConversationContext>;
type Answer = { kind: 'button'; value: string; ctx: ConversationContext } | { kind: 'text'; text: string; ctx: ConversationContext };

/** One conversation in progress: whose it is and where it talks. */
interface Talk {
  conversation: SettingsConversation;
  ctx: ConversationContext;
  userId: number;
}

/** A question with buttons; `parseText` accepts a typed answer too. */
interface Question {
  step: string;
  text: string;
  choices: readonly Choice[];
  parseText?: (text: string) => string | null;
}

/** A settings question left unanswered this long ends the conversation, ms. */
const ANSWER_TIMEOUT_MS = 15 * 60 * 1000;
/** Spec 8: at most 8 post-processing types. */
const MAX_TYPES = 8;

/**
 * The /settings conversation: recognition language, output format, default
 * post-processing types (only with a language model) and the speaker count hint, one question
 * at a time, then saved for the person. /cancel leaves without saving; another command or a
 * recording ends it and is handled as usual.
 */
export function createSettingsConversation(deps: BotDeps) {
  const { db } = deps.service.database;
  const languages = deps.service.engine.languages;
  /** The language question, the person's Telegram language and saved language first. */
  const languageQuestion = (telegramLanguage: string | undefined, saved: string | null): Question => ({
    step: 'lang',
    text: 'Which language is spoken in your recordings? You can also type its name or code (e.g. German, deutsch, de).',
    choices: languageChoices(languages, [languageFromTelegram(telegramLanguage), saved]),
    parseText: (text) => parseLanguageText(text, languages),
  });
  const formatQuestion: Question = { step: 'fmt', text: 'How should I send transcripts?', choices: FORMAT_CHOICES };
  const speakersQuestion: Question = {
    step: 'spk',
    text: 'How many people usually speak? "Automatic" finds out for each recording; for a single recording, use "Speakers…" under its transcript instead. You can also type a number.',
    choices: SPEAKER_CHOICES,
    parseText: parseSpeakersText,
  };
  return async function settings(conversation: SettingsConversation, ctx: ConversationContext): Promise<void> {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    const talk: Talk = { conversation, ctx, userId };
    const current = await conversation.external(() => getBotUserSettings(db, String(userId)));
    await ctx.reply(
      `Your settings now:\n${describeSettings(current)}\n\nThese are your defaults for every recording. Let's go through them. Send /cancel to stop without saving.`,
    );
    const language = await ask(talk, languageQuestion(ctx.from?.language_code, current.language));
    const format = await ask(talk, formatQuestion);
    const postProcess = deps.postProcess ? await askTypes(talk, current.postProcess) : current.postProcess;
    const speakers = await ask(talk, speakersQuestion);
    const next: BotUserSettings = {
      language: language === 'auto' ? null : language,
      outputFormat: format as BotOutputFormat,
      postProcess,
      speakers: speakers === 'auto' ? null : Number(speakers),
    };
    await conversation.external(() => saveBotUserSettings(db, String(userId), next));
    await ctx.reply(`Saved. From now on:\n${describeSettings(next)}`);
  };
}

/** Asks one question and returns the chosen value; the question then shows the answer. */
async function ask(talk: Talk, question: Question): Promise<string> {
  const asked = await talk.ctx.reply(question.text, { reply_markup: choiceKeyboard(question.step, question.choices) });
  for (;;) {
    const answer = await waitForAnswer(talk, question.step);
    const value = answer.kind === 'button' ? answer.value : question.parseText?.(answer.text) ?? null;
    const choice = question.choices.find((entry) => entry.value === value);
    if (value !== null && (choice || answer.kind === 'text')) {
      await answer.ctx.api.editMessageText(asked.chat.id, asked.message_id, `${question.text}\n→ ${choice?.label ?? value}`);
      return value;
    }
    await answer.ctx.reply('Please pick one of the buttons above (or /cancel).');
  }
}

/** Toggles default post-processing types until Done; returns the chosen ones. */
async function askTypes(talk: Talk, initial: readonly string[]): Promise<string[]> {
  const question = `What should I make after every transcript? Tap to choose (at most ${MAX_TYPES}), then Done.`;
  let selected = initial.filter((type) => (DEFAULT_TYPE_CHOICES as readonly string[]).includes(type));
  const asked = await talk.ctx.reply(question, { reply_markup: typesKeyboard(selected) });
  for (;;) {
    const answer = await waitForAnswer(talk, 'pp');
    if (answer.kind === 'text') {
      await answer.ctx.reply('Tap the buttons above, then Done.');
      continue;
    }
    if (answer.value === 'done') {
      await answer.ctx.api.editMessageText(asked.chat.id, asked.message_id, `${question}\n→ ${selected.length} chosen`);
      return selected;
    }
    const type = POST_PROCESS_TYPE_NAMES[Number(answer.value)];
    if (type === undefined || !DEFAULT_TYPE_CHOICES.includes(type)) continue;
    if (selected.includes(type)) selected = selected.filter((entry) => entry !== type);
    else if (selected.length < MAX_TYPES) selected = [...selected, type];
    await answer.ctx.api.editMessageReplyMarkup(asked.chat.id, asked.message_id, { reply_markup: typesKeyboard(selected) });
  }
}

/**
 * The next answer to question `step` from the person who asked for /settings: its button, or a
 * text message. Buttons of earlier questions are answered as closed; /cancel ends without saving;
 * other commands end the conversation and run; anything else (recordings, other buttons, other
 * people in a group) is handled outside while the question waits.
 */
async function waitForAnswer({ conversation, userId }: Talk, step: string): Promise<Answer> {
  for (;;) {
    const next = await conversation.wait({ maxMilliseconds: ANSWER_TIMEOUT_MS });
    if (next.from?.id !== userId) return conversation.skip({ next: true });
    const data = next.callbackQuery?.data;
    if (data?.startsWith(`set:${step}:`)) {
      await next.answerCallbackQuery();
      return { kind: 'button', value: data.slice(`set:${step}:`.length), ctx: next };
    }
    if (data?.startsWith('set:')) {
      await next.answerCallbackQuery({ text: 'That question is closed.' });
      continue;
    }
    const text = next.message?.text;
    if (text !== undefined && /^\/cancel(@\w+)?$/.test(text.trim())) {
      await next.reply('Settings unchanged.');
      return conversation.halt();
    }
    if (text?.startsWith('/')) return conversation.halt({ next: true });
    if (text !== undefined) return { kind: 'text', text, ctx: next };
    return conversation.skip({ next: true });
  }
}
