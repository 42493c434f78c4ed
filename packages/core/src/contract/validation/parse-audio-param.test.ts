import { describe, expect, it } from 'vitest';
import { expectInvalid, parseWith } from './expect-invalid-input.test-helper.ts';
import { MAX_AUDIO_LINK_CHARS } from './audio-schema.ts';
import { parseLegacyInput } from './parse-legacy-input.ts';

const B64 = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

describe('audio (spec 2.2, replicate-compat 3)', () => {
  it.each([
    ['https link', 'https://example.com/a.mp3'],
    ['http link with query', 'http://example.com/a.mp3?sig=abc&x=1'],
    ['upper-case scheme', 'HTTPS://EXAMPLE.COM/a.mp3'],
    ['link on a port', 'https://files.example.com:8443/v1/files/abc'],
    ['data URI audio/x-wav (Python)', `data:audio/x-wav;base64,${B64}`],
    ['data URI audio/wav', `data:audio/wav;base64,${B64}`],
    ['data URI audio/mpeg', `data:audio/mpeg;base64,${B64}`],
    ['data URI octet-stream', `data:application/octet-stream;base64,${B64}`],
    ['data URI with empty mime (JS 0.31 Blob)', `data:;base64,${B64}`],
    ['data URI with parameters', `data:audio/wav;name=a.wav;base64,${B64}`],
    ['data URI upper-case', `DATA:audio/wav;BASE64,${B64}`],
    ['data URI URL-safe alphabet, unpadded', 'data:audio/wav;base64,ab-_cd'],
  ])('should accept %s', (_name, audio) => {
    expect(parseWith({ audio }).audio).toBe(audio);
  });

  it('should trim surrounding whitespace', () => {
    expect(parseWith({ audio: '  https://example.com/a.mp3\n' }).audio).toBe('https://example.com/a.mp3');
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['whitespace', '   '],
    ['a number', 5],
    ['a list', ['https://example.com/a.mp3']],
    ['an object', { url: 'https://example.com/a.mp3' }],
    ['true', true],
    ['a relative path', '/tmp/a.mp3'],
    ['a bare word', 'talk.mp3'],
    ['an ftp link', 'ftp://example.com/a.mp3'],
    ['a file link', 'file:///etc/passwd'],
    ['an internal upload name', 'upload:a.mp3'],
    ['a javascript link', 'javascript:alert(1)'],
    ['a too long link', `https://example.com/${'a'.repeat(MAX_AUDIO_LINK_CHARS)}`],
    ['a data URI without comma', 'data:audio/wav;base64'],
    ['a data URI without base64', 'data:audio/wav,RIFF%00%00'],
    ['a data URI with base64 not last', `data:audio/wav;base64;x=1,${B64}`],
    ['a data URI with a broken mime', `data:audio wav;base64,${B64}`],
    ['a data URI with no data', 'data:audio/wav;base64,'],
    ['a data URI with non-base64 data', 'data:audio/wav;base64,not base64!'],
  ])('should refuse %s', (_name, audio) => {
    expectInvalid(() => parseWith({ audio }), 'audio');
  });

  it('should say what forms audio takes when it is missing', () => {
    const error = expectInvalid(() => parseWith({ audio: undefined }), 'audio');
    expect(error.message).toMatch(/required/);
    expect(error.message).toMatch(/https:\/\//);
    expect(error.message).toMatch(/data:/);
  });

  it('should never quote the link, which may hold a token', () => {
    const error = expectInvalid(() => parseWith({ audio: 'ftp://user:hunter2@example.com/a.mp3' }), 'audio');
    expect(error.message).not.toContain('hunter2');
  });

  it('should check only the ends of a large data URI payload', () => {
    const middle = `${'A'.repeat(3000)}!${'A'.repeat(3000)}`;
    expect(parseWith({ audio: `data:audio/wav;base64,${middle}` }).audio).toMatch(/^data:/);
    expectInvalid(() => parseWith({ audio: `data:audio/wav;base64,${'A'.repeat(3000)}!AAAA` }), 'audio');
  });

  it('should name url instead of audio when asked', () => {
    expectInvalid(() => parseLegacyInput({}), 'url');
  });
});
