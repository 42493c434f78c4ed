/** Builders of the updates Telegram sends, for tests against the fake Bot API. */
import type { Message, Update, User } from 'grammy/types';
import type { FakeBotApi } from './fake-bot-api.ts';

let nextMessageId = 1;

/** A private-chat message from `user` with the given content (`voice`, `document`, `text`, …). */
export function messageUpdate(
  user: User,
  content: Record<string, unknown>,
): Omit<Update, 'update_id'> & { message: Update['message'] & Message } {
  const message = {
    message_id: nextMessageId++,
    date: Math.floor(Date.now() / 1000),
    chat: { id: user.id, type: 'private', first_name: user.first_name },
    from: user,
    ...content,
  } as unknown as Update['message'] & Message;
  return { message };
}

/** A command message (`/settings`) with the bot_command entity Telegram adds. */
export function commandUpdate(user: User, command: string) {
  const name = command.split(' ')[0]!;
  return messageUpdate(user, { text: command, entities: [{ type: 'bot_command', offset: 0, length: name.length }] });
}

/** A voice message as Telegram sends it (OGG/Opus), `duration` seconds long as Telegram states it (default 4). */
export function voiceUpdate(user: User, fileId: string, fileSize?: number, duration = 4) {
  return messageUpdate(user, {
    voice: { file_id: fileId, file_unique_id: `u-${fileId}`, duration, mime_type: 'audio/ogg', file_size: fileSize },
  });
}

/**
 * Presses the button whose text matches `label` under the bot's message `messageId` (as last
 * sent or edited): pushes the callback query Telegram would send. Returns the callback data.
 */
export function pressButton(fake: FakeBotApi, user: User, messageId: number, label: RegExp): string {
  const message = fake.messages.get(messageId);
  const rows =
    (message?.reply_markup as { inline_keyboard?: { text: string; callback_data?: string }[][] } | undefined)?.inline_keyboard ?? [];
  const button = rows.flat().find((entry) => label.test(entry.text));
  if (!message || !button?.callback_data) {
    throw new Error(`no button ${label} under message ${messageId}: ${JSON.stringify(rows.flat().map((entry) => entry.text))}`);
  }
  pressData(fake, user, message, button.callback_data);
  return button.callback_data;
}

/** Pushes a callback query with `data` from a button under `message`. */
export function pressData(fake: FakeBotApi, user: User, message: Message, data: string): void {
  fake.pushUpdate({
    callback_query: { id: `cq-${nextMessageId++}`, from: user, chat_instance: `ci-${user.id}`, message, data },
  } as Omit<Update, 'update_id'>);
}
