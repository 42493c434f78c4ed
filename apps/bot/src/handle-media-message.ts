import { Composer } from 'grammy';
import { AppError, getGroupTranscribeAll, mediaTooLargeError } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { textsFor } from './bot-i18n.ts';
import { replyForError } from './reply-for-error.ts';
import { selectRecording } from './select-recording.ts';
import { transcribeMedia } from './transcribe-media.ts';

/**
 * Messages with files: recordings start a background transcription (never refused: each becomes a
 * queued prediction); other files and files over the size limit get a plain-words reply. In groups
 * only what select-recording.ts says is addressed to the bot is answered, in the recording's thread,
 * and the person who asked is charged. Messages without files go on to the next handler.
 */
export function handleMediaMessages(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on('message', async (ctx, next) => {
    if (!ctx.from) return next();
    const me = { id: ctx.me.id, username: ctx.me.username };
    const request = await selectRecording(ctx.message, me, () => getGroupTranscribeAll(deps.service.database.db, ctx.chat.id));
    if (request.kind === 'none') return next();
    if (request.kind === 'ignore') return;
    const threadId = ctx.message.is_topic_message ? (ctx.message.message_thread_id ?? null) : null;
    const answer = (text: string, replyTo: number) =>
      ctx.reply(text, {
        reply_parameters: { message_id: replyTo, allow_sending_without_reply: true },
        ...(threadId ? { message_thread_id: threadId } : {}),
      });
    // The person's texts; this also notes their Telegram language for the transcript that follows later.
    const t = textsFor(deps, ctx.from);
    if (request.kind === 'hint') return void (await answer(t('group-hint'), ctx.message.message_id));
    const { found, message } = request;
    const reply = (error: AppError) => answer(replyForError(error, deps.settings, t), message.message_id);
    if (found === 'unsupported') return void (await reply(new AppError('unsupported_media_type', 'not audio or video')));
    if (found.fileSize !== undefined && found.fileSize > deps.settings.maxFileBytes) {
      return void (await reply(mediaTooLargeError(deps.settings.maxFileBytes, found.fileSize)));
    }
    const job = {
      chatId: ctx.chat.id,
      threadId,
      userId: ctx.from.id,
      messageId: message.message_id,
      media: found,
      sentAt: new Date(message.date * 1000),
    };
    if (!deps.jobs.tryRun((signal) => transcribeMedia(deps, job, signal))) await answer(t('error-stopped'), message.message_id);
  });
  return composer;
}
