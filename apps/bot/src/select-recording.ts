import type { Message } from 'grammy/types';
import { findMedia, type IncomingMedia } from './find-media.ts';

/** The bot itself, as getMe gave it. */
export interface BotIdentity {
  id: number;
  username: string;
}

/**
 * What a message asks of the bot: transcribe `found` in `message` (the message itself, or in a
 * group the recording a mention replies to), say a file is not a recording, show how to ask in a
 * group (`hint`), or nothing (`ignore`: group talk not addressed to the bot; `none`: no file, for
 * the next handler).
 */
export type RecordingRequest =
  { kind: 'recording'; message: Message; found: IncomingMedia | 'unsupported' } | { kind: 'hint' } | { kind: 'ignore' } | { kind: 'none' };

/**
 * Decides what `message` asks. In a private chat every file is for the bot. In a group or
 * supergroup the bot answers only when asked, because the other members did not ask for their
 * voice notes to be processed: a recording whose caption mentions the bot or that replies to the
 * bot's message; a text mentioning the bot in reply to a recording (that recording is transcribed);
 * or any recording when a group admin turned that on (`transcribeAll`, read only when needed).
 */
export async function selectRecording(message: Message, me: BotIdentity, transcribeAll: () => Promise<boolean>): Promise<RecordingRequest> {
  const own = findMedia(message);
  if (message.chat.type === 'private' || message.chat.type === 'channel') {
    return own === null ? { kind: 'none' } : { kind: 'recording', message, found: own };
  }
  const mentioned = mentionsBot(message, me);
  if (own !== null) {
    const addressed = mentioned || message.reply_to_message?.from?.id === me.id;
    if (addressed || (own !== 'unsupported' && (await transcribeAll()))) return { kind: 'recording', message, found: own };
    return { kind: 'ignore' };
  }
  if (!mentioned) return { kind: 'ignore' };
  const target = message.reply_to_message;
  const found = target ? findMedia(target as Message) : null;
  return target && found !== null ? { kind: 'recording', message: target as Message, found } : { kind: 'hint' };
}

/** True when the text or caption names the bot (`@username`, any case). */
export function mentionsBot(message: Message, me: BotIdentity): boolean {
  const text = (message.text ?? message.caption ?? '').toLowerCase();
  return text.includes(`@${me.username.toLowerCase()}`);
}
