import { describe, expect, it } from 'vitest';
import { AppError, type AppErrorCode } from '@transcribe/core';
import { replyForError, replyForFailedPrediction, TELEGRAM_FILE_PARAM } from './reply-for-error.ts';
import { english } from './test-support/english-texts.ts';

const LIMITS = { maxFileBytes: 20 * 1024 * 1024 };
const CODES: AppErrorCode[] = [
  'invalid_input',
  'unauthenticated',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'media_too_large',
  'media_unreadable',
  'media_no_audio',
  'upstream_refused',
  'upstream_unreachable',
  'address_not_allowed',
  'recognition_failed',
  'engine_unavailable',
  'cache_changed',
  'service_busy',
  'post_processing_failed',
  'internal',
];

describe('replyForError', () => {
  it('should give every error code a plain sentence without internals', () => {
    for (const code of CODES) {
      const reply = replyForError(new AppError(code, 'secret detail /var/data/x'), LIMITS, english);
      expect(reply).toMatch(/^[A-Z].*[.)]$/s);
      if (code !== 'invalid_input') expect(reply).not.toContain('secret detail');
    }
  });

  it('should name the size limit and who failed', () => {
    expect(replyForError(new AppError('media_too_large', 'x'), LIMITS, english)).toBe(
      'This file is too large: I can take files up to 20 MiB. Send a shorter or more compressed recording, or upload it in the web portal (/portal).',
    );
    expect(replyForError(new AppError('upstream_unreachable', 'x', { param: TELEGRAM_FILE_PARAM }), LIMITS, english)).toMatch(
      /^Telegram did not answer/,
    );
  });

  it('should say plainly when Telegram’s 20 MB limit for bots is the reason, and offer the ways around it', () => {
    const cloud = replyForError(new AppError('media_too_large', 'x'), { maxFileBytes: 20 * 1024 * 1024, localApiServer: false }, english);
    expect(cloud).toMatch(/^This file is too large for me: Telegram lets bots download files of at most 20 MiB\. Ways around it:/);
    expect(cloud).toContain('/portal');
    expect(cloud).toContain('link to the file');
    expect(cloud).toContain('local Bot API server (TELEGRAM_API_ROOT), which raises the limit to 2 GB');
    const local = replyForError(new AppError('media_too_large', 'x'), { maxFileBytes: 300 * 1024 * 1024, localApiServer: true }, english);
    expect(local).toMatch(/^This file is too large: I can take files up to 300 MiB\./);
    expect(local).not.toContain('Bot API server');
  });

  it('should treat unknown errors and unknown stored codes as internal', () => {
    const internal = 'Something went wrong on my side. Try again; if it keeps happening, tell the operator.';
    expect(replyForError(new TypeError('boom at /srv/app.ts'), LIMITS, english)).toBe(internal);
    expect(replyForFailedPrediction({ error: 'x', errorCode: 'no_such_code' }, LIMITS, english)).toBe(internal);
    expect(replyForFailedPrediction({ error: 'x', errorCode: 'media_no_audio' }, LIMITS, english)).toBe(
      'This file has no sound, so there is nothing to transcribe.',
    );
  });
});
