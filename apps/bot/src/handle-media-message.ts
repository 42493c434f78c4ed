import { Composer } from 'grammy';
import { AppError, mediaTooLargeError } from '@transcribe/core';
import type { BotContext, BotDeps } from './bot-context.ts';
import { findMedia } from './find-media.ts';
import { replyForError } from './reply-for-error.ts';
import { transcribeMedia } from './transcribe-media.ts';

/**
 * Messages with files: recordings start a background transcription; other files, files
 * over the size limit and recordings arriving while the bot is full get a plain-words reply.
 * Messages without files go on to the next handler.
 */
export function handleMediaMessages(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on('message', async (ctx, next) => {
    const found = findMedia(ctx.message);
    if (found === null || !ctx.from) return next();
    const reply = (error: AppError) =>
      ctx.reply(replyForError(error, deps.settings), { reply_parameters: { message_id: ctx.message.message_id, allow_sending_without_reply: true } });
    if (found === 'unsupported') return void (await reply(new AppError('unsupported_media_type', 'not audio or video')));
    if (found.fileSize !== undefined && found.fileSize > deps.settings.maxFileBytes) {
      return void (await reply(mediaTooLargeError(deps.settings.maxFileBytes, found.fileSize)));
    }
    const job = { chatId: ctx.chat.id, userId: ctx.from.id, messageId: ctx.message.message_id, media: found };
    if (!deps.jobs.tryRun((signal) => transcribeMedia(deps, job, signal))) {
      await reply(new AppError('service_busy', 'the bot is running as many jobs as it may'));
    }
  });
  return composer;
}
