import { describe, expect, it } from 'vitest';
import type { InlineKeyboard } from 'grammy';
import { LANGUAGES } from '@transcribe/core';
import { languageKeyboard, parseResultAction, resultKeyboard } from './result-buttons.ts';

const id = 'abcdefghijklmnopqrstuvwxyz';

function allData(keyboard: InlineKeyboard): string[] {
  return keyboard.inline_keyboard.flat().map((button) => ('callback_data' in button ? button.callback_data : ''));
}

describe('result buttons', () => {
  it('should make callback data of at most 64 bytes that reads back to the same action', () => {
    const data = [...allData(resultKeyboard(id)), ...allData(resultKeyboard(id, true))];
    for (let page = 0; page < 9; page += 1) data.push(...allData(languageKeyboard(id, 'translated_subtitles', page)));
    for (const item of data) {
      expect(Buffer.byteLength(item)).toBeLessThanOrEqual(64);
      expect(parseResultAction(item)).not.toBeNull();
    }
    expect(parseResultAction(`pp:${id}:0`)).toEqual({ action: 'run', predictionId: id, type: 'summary', targetLanguage: null });
    expect(parseResultAction(`pt:${id}:14:de`)).toEqual({ action: 'run', predictionId: id, type: 'translation', targetLanguage: 'de' });
    expect(parseResultAction(`pm:${id}`)).toEqual({ action: 'more', predictionId: id });
  });

  it('should offer every language of spec 2.5 across the picker pages', () => {
    const codes = new Set<string>();
    for (let page = 0; page < 9; page += 1) {
      for (const item of allData(languageKeyboard(id, 'translation', page))) if (item.startsWith('pt:')) codes.add(item.split(':')[3]!);
    }
    expect(codes.size).toBe(LANGUAGES.length);
  });

  it('should refuse foreign or broken data', () => {
    for (const bad of ['', 'pp:short:0', `pp:${id}:16`, `pp:${id}:99`, `pt:${id}:14:xx`, `pl:${id}:0:x`, `pm:${id}:0`, `menu/${id}`]) {
      expect(parseResultAction(bad)).toBeNull();
    }
  });
});
