import { describe, expect, it } from 'vitest';
import type { Message } from 'grammy/types';
import { findMedia, isMediaDocument } from './find-media.ts';

const base = { message_id: 1, date: 0, chat: { id: 7, type: 'private', first_name: 'A' } } as const;
const file = { file_id: 'F', file_unique_id: 'U', file_size: 10 };

function message(extra: Record<string, unknown>): Message {
  return { ...base, ...extra } as unknown as Message;
}

describe('findMedia', () => {
  it('should take voice messages, audio, video notes and videos', () => {
    expect(findMedia(message({ voice: { ...file, duration: 3 } }))).toEqual({
      kind: 'voice',
      fileId: 'F',
      fileSize: 10,
      fileName: 'voice.ogg',
      durationSeconds: 3,
    });
    expect(findMedia(message({ audio: { ...file, duration: 3, file_name: 'talk.mp3' } }))).toMatchObject({
      kind: 'audio',
      fileName: 'talk.mp3',
    });
    expect(findMedia(message({ video_note: { ...file, duration: 3, length: 240 } }))).toMatchObject({ kind: 'video_note' });
    expect(findMedia(message({ video: { ...file, duration: 3, width: 1, height: 1 } }))).toMatchObject({
      kind: 'video',
      fileName: 'video.mp4',
    });
  });

  it('should take audio and video documents and refuse other files', () => {
    expect(findMedia(message({ document: { ...file, mime_type: 'audio/mpeg', file_name: 'a.mp3' } }))).toMatchObject({ kind: 'document' });
    expect(findMedia(message({ document: { ...file, mime_type: 'application/pdf', file_name: 'a.pdf' } }))).toBe('unsupported');
    expect(findMedia(message({ photo: [{ ...file, width: 1, height: 1 }] }))).toBe('unsupported');
    expect(findMedia(message({ text: 'hello' }))).toBeNull();
  });

  it('should take forwarded voice messages and video notes, and audio or video sent as files', () => {
    const forwarded = { forward_origin: { type: 'user', date: 0, sender_user: { id: 9, is_bot: false, first_name: 'B' } } };
    expect(findMedia(message({ ...forwarded, voice: { ...file, duration: 3 } }))).toMatchObject({ kind: 'voice', fileName: 'voice.ogg' });
    expect(findMedia(message({ ...forwarded, video_note: { ...file, duration: 3, length: 240 } }))).toMatchObject({ kind: 'video_note' });
    expect(findMedia(message({ ...forwarded, audio: { ...file, duration: 3 } }))).toMatchObject({ kind: 'audio' });
    expect(findMedia(message({ document: { ...file, mime_type: 'application/mp4', file_name: 'memo.m4a' } }))).toMatchObject({
      kind: 'document',
      fileName: 'memo.m4a',
    });
    expect(findMedia(message({ document: { ...file, mime_type: 'video/x-matroska', file_name: 'call.mkv' } }))).toMatchObject({
      kind: 'document',
    });
    expect(findMedia(message({ document: { ...file, mime_type: 'application/x-matroska', file_name: 'call.mkv' } }))).toMatchObject({
      kind: 'document',
    });
    expect(findMedia(message({ document: { ...file, file_name: 'Запись.OPUS' } }))).toMatchObject({
      kind: 'document',
      fileName: 'Запись.OPUS',
    });
  });

  it('should never keep a path in the file name', () => {
    expect(findMedia(message({ document: { ...file, mime_type: 'audio/ogg', file_name: '../../etc/passwd' } }))).toMatchObject({
      fileName: 'passwd',
    });
    expect(findMedia(message({ document: { ...file, mime_type: 'audio/ogg', file_name: '.hidden' } }))).toMatchObject({
      fileName: 'file.hidden',
    });
  });

  it('should decide documents by MIME type, then by extension', () => {
    expect(isMediaDocument('video/mp4', 'x')).toBe(true);
    expect(isMediaDocument('application/octet-stream', 'talk.M4A')).toBe(true);
    expect(isMediaDocument('', 'notes.txt')).toBe(false);
    expect(isMediaDocument('text/plain', 'talk.mp3')).toBe(false);
  });
});
