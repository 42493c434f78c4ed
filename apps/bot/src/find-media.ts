import type { Message } from 'grammy/types';
import { VIDEO_NOTE_FILE_NAME, VOICE_FILE_NAME } from './describe-recording.ts';

/** A recording in a chat message that the bot can transcribe. */
export interface IncomingMedia {
  kind: 'voice' | 'audio' | 'video_note' | 'video' | 'document';
  fileId: string;
  /** Size Telegram declares, bytes; may be missing. */
  fileSize: number | undefined;
  /** A file name for the upload (never a path). */
  fileName: string;
  /** Length Telegram states (voice, audio, video notes, videos), seconds; charged in the fair queue before the file is probed. */
  durationSeconds?: number;
}

/** Extensions of audio and video files taken as documents when Telegram gives no useful MIME type. */
const MEDIA_EXTENSIONS = new Set([
  'mp3',
  'm4a',
  'ogg',
  'oga',
  'opus',
  'wav',
  'flac',
  'aac',
  'wma',
  'amr',
  'aiff',
  'aif',
  'weba',
  'webm',
  'mkv',
  'mp4',
  'm4v',
  'mov',
  'avi',
  '3gp',
  'mpeg',
  'mpg',
  'ts',
  'wmv',
  'flv',
]);

/** Media types outside audio/* and video/* that phones and desktop apps give recordings (Ogg, MP4 audio, Matroska). */
const MEDIA_MIME_TYPES = new Set(['application/ogg', 'application/x-ogg', 'application/mp4', 'application/x-matroska']);

/**
 * The recording in `message` (voice messages, audio files, video notes, videos and
 * audio/video documents), `'unsupported'` for other files (photos, stickers, animations, other
 * documents), or null for messages without a file (text, service messages). A forwarded message
 * carries the same file fields as the original, so forwarded recordings are found the same way.
 */
export function findMedia(message: Message): IncomingMedia | 'unsupported' | null {
  if (message.voice) return media('voice', message.voice, VOICE_FILE_NAME);
  if (message.audio) return media('audio', message.audio, message.audio.file_name ?? 'audio');
  if (message.video_note) return media('video_note', message.video_note, VIDEO_NOTE_FILE_NAME);
  if (message.video) return media('video', message.video, message.video.file_name ?? 'video.mp4');
  if (message.animation || message.photo || message.sticker) return 'unsupported';
  if (message.document) {
    const { mime_type: mime = '', file_name: name = 'file' } = message.document;
    return isMediaDocument(mime, name) ? media('document', message.document, name) : 'unsupported';
  }
  return null;
}

/** True for an audio/* or video/* MIME type, Ogg, or (when the type says nothing) a media extension. */
export function isMediaDocument(mimeType: string, fileName: string): boolean {
  const mime = mimeType.toLowerCase();
  if (mime.startsWith('audio/') || mime.startsWith('video/') || MEDIA_MIME_TYPES.has(mime)) return true;
  if (mime !== '' && mime !== 'application/octet-stream') return false;
  const extension = fileName.toLowerCase().split('.').pop() ?? '';
  return fileName.includes('.') && MEDIA_EXTENSIONS.has(extension);
}

function media(
  kind: IncomingMedia['kind'],
  file: { file_id: string; file_size?: number; duration?: number },
  fileName: string,
): IncomingMedia {
  const found: IncomingMedia = { kind, fileId: file.file_id, fileSize: file.file_size, fileName: safeName(fileName) };
  if (typeof file.duration === 'number') found.durationSeconds = file.duration;
  return found;
}

/** Keeps only the last path part and safe characters, at most 100 characters. */
function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .slice(0, 100)
    .trim();
  return cleaned === '' || cleaned.startsWith('.') ? `file${cleaned}` : cleaned;
}
