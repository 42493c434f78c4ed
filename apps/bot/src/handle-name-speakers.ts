import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Composer, GrammyError, InputFile } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import {
  AppError,
  DEFAULT_MAX_VOICES_PER_ACCOUNT,
  enrollSpeakerVoice,
  findOwnedPrediction,
  getBotUserSettings,
  isAppError,
  measureTranscriptSpeakers,
  MIN_SAMPLE_SPEECH_SECONDS,
  renameTranscriptSpeakers,
  telegramOwner,
  voiceNameSchema,
  type MeasuredSpeaker,
  type Transcript,
} from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { textsFor, type Translate } from './bot-i18n.ts';
import { sendChatText } from './chat-text.ts';
import { downloadTelegramFile } from './download-telegram-file.ts';
import { findMedia } from './find-media.ts';
import { isEmptyTranscript, renderChatTranscript } from './render-chat-transcript.ts';
import { replyForError } from './reply-for-error.ts';
import { severalSpeakers } from './result-buttons.ts';

/** A naming left unanswered this long is forgotten (text is then read as usual again), ms. */
const SESSION_MS = 30 * 60 * 1000;
/** Namings kept at most; the oldest is forgotten first (memory stays bounded). */
const MAX_SESSIONS = 1000;
/** Callback data of "Skip" under an excerpt: `nk:<prediction>:<speaker index>`. */
const SKIP_PATTERN = /^nk:([a-z2-7]{26}):(\d{1,2})$/;

/** A speaker to be named: what was measured, the excerpt's audio kept in memory until it is played. */
interface SpeakerToName {
  label: string;
  speechSeconds: number;
  measured: MeasuredSpeaker['embeddings'];
  excerpt: Buffer;
  excerptSeconds: number;
}

/** One "Name speakers" in progress: whose, where, which speaker is asked about now. */
interface Naming {
  predictionId: string;
  chatId: number;
  threadId: number | null;
  userId: number;
  /** The message with the transcript (the excerpts answer it). */
  transcriptMessageId: number;
  /** The recording's message (the transcript with names answers it). */
  recordingMessageId: number;
  /** Base of file names for a long transcript (`voice`). */
  baseName: string;
  transcript: Transcript;
  speakers: SpeakerToName[];
  /** Index into `speakers` of the one asked about. */
  index: number;
  /** The excerpt message asking about it (in a group, names must answer it). */
  askMessageId: number;
  /** Names given so far, by label. */
  names: Map<string, string>;
  touchedAt: number;
}

/**
 * "🏷 Name speakers" under a transcript with two or more speakers (result-buttons.ts, `pn:`): the
 * recording is fetched again from Telegram (the message the transcript answers), each speaker
 * measured (measureTranscriptSpeakers: the voice embeddings of their longest turns, a ~5 s excerpt),
 * the audio removed at once; then, one speaker at a time, the excerpt is sent as a voice message with
 * "Who is this?" and Skip. The name (typed; in a group, a reply to the excerpt) is checked like the
 * API's voice names (voiceNameSchema) and stored in the registry of the person who pressed the button
 * (account `telegram:<id>`, in groups too: only the person whose transcript it is can press it), as a
 * new voice or added to their voice of that name (enrollSpeakerVoice); only embeddings are stored.
 * After the last speaker the bot says how many voices were named and sends the transcript again with
 * the names. The person's next recordings ask for their voices (`known_voices: true`) unless they
 * switched it off in /settings (transcribe-media.ts predictionInput).
 *
 * Namings in progress live in this handler's memory (at most MAX_SESSIONS, each forgotten after
 * SESSION_MS): a restart forgets them, and the excerpts' audio with them.
 */
export function handleNameSpeakers(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const namings = new Map<string, Naming>();
  const keyOf = (chatId: number, userId: number) => `${chatId}:${userId}`;
  const current = (chatId: number, userId: number): Naming | null => {
    const key = keyOf(chatId, userId);
    const naming = namings.get(key);
    if (naming && Date.now() - naming.touchedAt > SESSION_MS) namings.delete(key);
    return namings.get(key) ?? null;
  };
  const remember = (naming: Naming) => {
    const key = keyOf(naming.chatId, naming.userId);
    namings.delete(key);
    if (namings.size >= MAX_SESSIONS) namings.delete(namings.keys().next().value as string);
    namings.set(key, naming);
  };
  const forget = (naming: Naming) => {
    if (namings.get(keyOf(naming.chatId, naming.userId)) === naming) namings.delete(keyOf(naming.chatId, naming.userId));
  };

  composer.callbackQuery(/^pn:[a-z2-7]{26}$/, async (ctx) => {
    const t = textsFor(deps, ctx.from);
    const predictionId = ctx.callbackQuery.data.slice(3);
    const started = await startNaming(deps, ctx, predictionId, t);
    if (typeof started === 'string') {
      await ctx.answerCallbackQuery({ text: started.slice(0, 200) });
      return void (await ctx.reply(started, replyTo(ctx.callbackQuery.message?.message_id)));
    }
    await ctx.answerCallbackQuery({ text: t('naming-preparing') });
    const task = async (signal: AbortSignal) => {
      try {
        const naming = await prepareNaming(deps, started, signal);
        if (!naming) return;
        remember(naming);
        await askNext(deps, naming, t, forget);
      } catch (error) {
        if (signal.aborted) return;
        await deps.api.sendMessage(
          started.chatId,
          describeFailure(error, deps, t),
          sendOptions(started.threadId, started.transcriptMessageId),
        );
      }
    };
    if (!deps.jobs.tryRun(task)) await ctx.reply(t('error-stopped'));
  });

  composer.callbackQuery(SKIP_PATTERN, async (ctx) => {
    const t = textsFor(deps, ctx.from);
    const [, predictionId, index] = SKIP_PATTERN.exec(ctx.callbackQuery.data)!;
    const naming = ctx.chat ? current(ctx.chat.id, ctx.from.id) : null;
    const asked = ctx.callbackQuery.message?.message_id;
    if (!naming || naming.predictionId !== predictionId || naming.index !== Number(index) || asked !== naming.askMessageId) {
      return void (await ctx.answerCallbackQuery({ text: t('naming-gone') }));
    }
    await ctx.answerCallbackQuery();
    const speaker = naming.speakers[naming.index]!;
    await closeQuestion(deps, naming);
    await deps.api.sendMessage(
      naming.chatId,
      t('naming-skipped', { label: speaker.label }),
      sendOptions(naming.threadId, naming.askMessageId),
    );
    naming.index += 1;
    naming.touchedAt = Date.now();
    await askNext(deps, naming, t, forget);
  });

  composer.on('message:text', async (ctx, next) => {
    const naming = current(ctx.chat.id, ctx.from.id);
    if (!naming || ctx.message.text.startsWith('/')) return next();
    // In a group people talk among themselves: only a reply to the excerpt is a name there.
    if (ctx.chat.type !== 'private' && ctx.message.reply_to_message?.message_id !== naming.askMessageId) return next();
    const t = textsFor(deps, ctx.from);
    const answer = (text: string) => ctx.reply(text, sendOptions(naming.threadId, ctx.message.message_id));
    naming.touchedAt = Date.now();
    const parsed = voiceNameSchema().safeParse(ctx.message.text);
    if (!parsed.success) return void (await answer(t('naming-name-invalid', { detail: parsed.error.issues[0]?.message ?? '' })));
    const name = parsed.data;
    if ([...naming.names.values()].includes(name)) return void (await answer(t('naming-name-twice', { name })));
    const speaker = naming.speakers[naming.index]!;
    try {
      const stored = await enrollSpeakerVoice(deps.service, {
        account: telegramOwner(naming.userId),
        name,
        embeddings: speaker.measured,
        speechSeconds: speaker.speechSeconds,
      });
      naming.names.set(speaker.label, name);
      await answer(t(stored.added ? 'naming-added' : 'naming-saved', { label: speaker.label, name }));
    } catch (error) {
      if (isAppError(error, 'conflict')) {
        const max = deps.service.config.maxVoicesPerAccount ?? DEFAULT_MAX_VOICES_PER_ACCOUNT;
        await answer(t('naming-full', { max, name }));
      } else if (isAppError(error, 'invalid_input')) {
        const seconds = speaker.speechSeconds.toFixed(1);
        await answer(t('naming-too-little', { label: speaker.label, seconds, min: MIN_SAMPLE_SPEECH_SECONDS }));
      } else throw error; // logged and answered by bot.catch; the question stays open
    }
    await closeQuestion(deps, naming);
    naming.index += 1;
    await askNext(deps, naming, t, forget);
  });
  return composer;
}

/** What startNaming found: where the naming happens and what it is about. */
interface NamingStart {
  predictionId: string;
  chatId: number;
  threadId: number | null;
  userId: number;
  transcriptMessageId: number;
  recording: { messageId: number; fileId: string; fileSize: number | undefined; fileName: string };
  transcript: Transcript;
}

/**
 * Checks a press of "Name speakers": the presser's own transcript (namespace `bot`), two or more
 * speakers, and the recording still in the chat (the message the transcript answers).
 * @returns the start, or the text to answer instead.
 */
async function startNaming(deps: BotDeps, ctx: BotContext, predictionId: string, t: Translate): Promise<NamingStart | string> {
  const message = ctx.callbackQuery?.message;
  const chatId = ctx.chat?.id;
  const userId = ctx.from?.id;
  try {
    if (chatId === undefined || userId === undefined || !message) throw new AppError('not_found', 'no chat');
    const row = await findOwnedPrediction(deps.service.database.db, predictionId, { owner: telegramOwner(userId), namespace: 'bot' });
    const transcript = row.transcript;
    if (row.status !== 'succeeded' || !transcript || isEmptyTranscript(transcript)) throw new AppError('not_found', 'no transcript');
    if (!severalSpeakers(transcript)) return t('naming-one-speaker');
    const original = 'reply_to_message' in message ? message.reply_to_message : undefined;
    const media = original ? findMedia(original) : null;
    if (!original || !media || media === 'unsupported') return t('recording-gone');
    return {
      predictionId,
      chatId,
      threadId: message.message_thread_id ?? null,
      userId,
      transcriptMessageId: message.message_id,
      recording: { messageId: original.message_id, fileId: media.fileId, fileSize: media.fileSize, fileName: media.fileName },
      transcript,
    };
  } catch (error) {
    return replyForError(error, deps.settings, t);
  }
}

/**
 * Fetches the recording from Telegram into a work folder of its own, measures its speakers and
 * removes the folder (recording, decoded audio, excerpt files): the excerpts' bytes and the
 * embeddings stay in memory. Speakers without speech to play are left out.
 * @returns the naming, or null when no speaker can be played.
 */
async function prepareNaming(deps: BotDeps, start: NamingStart, signal: AbortSignal): Promise<Naming | null> {
  const workDir = join(deps.service.config.dataDir, 'work', `bot-naming-${randomUUID()}`);
  await mkdir(workDir, { recursive: true });
  try {
    const mediaPath = join(workDir, 'recording');
    const download = { fileId: start.recording.fileId, declaredBytes: start.recording.fileSize, destPath: mediaPath, signal };
    await downloadTelegramFile(deps.api, deps.settings, download);
    const measured = await measureTranscriptSpeakers(deps.service, { mediaPath, transcript: start.transcript, workDir, signal });
    const speakers: SpeakerToName[] = [];
    for (const speaker of measured) {
      if (speaker.excerptPath === null) continue;
      speakers.push({
        label: speaker.label,
        speechSeconds: speaker.speechSeconds,
        measured: speaker.embeddings,
        excerpt: await readFile(speaker.excerptPath),
        excerptSeconds: speaker.excerptSeconds,
      });
    }
    if (speakers.length === 0) return null;
    const dot = start.recording.fileName.lastIndexOf('.');
    return {
      predictionId: start.predictionId,
      chatId: start.chatId,
      threadId: start.threadId,
      userId: start.userId,
      transcriptMessageId: start.transcriptMessageId,
      recordingMessageId: start.recording.messageId,
      baseName: (dot > 0 ? start.recording.fileName.slice(0, dot) : start.recording.fileName).replace(/\s+/g, '_') || 'transcript',
      transcript: start.transcript,
      speakers,
      index: 0,
      askMessageId: 0,
      names: new Map(),
      touchedAt: Date.now(),
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Sends the excerpt of the next speaker with "Who is this?" and Skip; after the last one, says how
 * many voices were named (and that recognising them is off, when it is), sends the transcript with
 * the names and ends the naming.
 */
async function askNext(deps: BotDeps, naming: Naming, t: Translate, forget: (naming: Naming) => void): Promise<void> {
  const speaker = naming.speakers[naming.index];
  if (speaker) {
    const group = naming.chatId !== naming.userId;
    const caption = t(group ? 'naming-ask-group' : 'naming-ask', {
      index: naming.index + 1,
      total: naming.speakers.length,
      label: speaker.label,
    });
    const keyboard: InlineKeyboardMarkup = {
      inline_keyboard: [[{ text: t('button-skip-speaker'), callback_data: `nk:${naming.predictionId}:${naming.index}` }]],
    };
    const options = {
      caption,
      duration: Math.max(1, Math.round(speaker.excerptSeconds)),
      reply_markup: keyboard,
      ...sendOptions(naming.threadId, naming.transcriptMessageId),
    };
    const file = () => new InputFile(speaker.excerpt, `${speaker.label}.ogg`);
    const sent = await deps.api.sendVoice(naming.chatId, file(), options).catch((error: unknown) => {
      // A person may forbid voice messages (Telegram privacy settings): the excerpt then comes as an audio file.
      if (!(error instanceof GrammyError && /VOICE_MESSAGES_FORBIDDEN/i.test(error.description))) throw error;
      return deps.api.sendAudio(naming.chatId, file(), { ...options, title: speaker.label });
    });
    naming.askMessageId = sent.message_id;
    naming.touchedAt = Date.now();
    return;
  }
  forget(naming);
  const settings = await getBotUserSettings(deps.service.database.db, String(naming.userId));
  const done = t('naming-done', { count: naming.names.size });
  const note =
    naming.names.size === 0
      ? ''
      : settings.knownVoices
        ? `\n${t('naming-renamed')}`
        : `\n\n${t('naming-done-off')}\n${t('naming-renamed')}`;
  await deps.api.sendMessage(naming.chatId, `${done}${note}`, sendOptions(naming.threadId, naming.transcriptMessageId));
  if (naming.names.size === 0) return;
  const named = renameTranscriptSpeakers(naming.transcript, Object.fromEntries(naming.names));
  const rendered = renderChatTranscript(named, settings.outputFormat, naming.baseName, t);
  await sendChatText(deps.api, naming.chatId, rendered, {
    replyTo: naming.recordingMessageId,
    previewInCaption: naming.chatId !== naming.userId,
  });
}

/** Removes Skip from the excerpt just answered, so an old button is not pressed again. */
async function closeQuestion(deps: BotDeps, naming: Naming): Promise<void> {
  await deps.api
    .editMessageReplyMarkup(naming.chatId, naming.askMessageId, { reply_markup: { inline_keyboard: [] } })
    .catch(() => undefined);
}

/** A failure of preparing the excerpts in words: a recording Telegram no longer gives is "gone". */
function describeFailure(error: unknown, deps: BotDeps, t: Translate): string {
  if (isAppError(error, 'upstream_refused')) return t('recording-gone');
  return replyForError(error, deps.settings, t);
}

function sendOptions(threadId: number | null, replyToId: number) {
  return {
    reply_parameters: { message_id: replyToId, allow_sending_without_reply: true },
    ...(threadId ? { message_thread_id: threadId } : {}),
  };
}

function replyTo(messageId: number | undefined) {
  return messageId === undefined ? {} : { reply_parameters: { message_id: messageId, allow_sending_without_reply: true } };
}
