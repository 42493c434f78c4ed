import { describe, expect, it } from 'vitest';
import type { InlineKeyboard } from 'grammy';
import { LANGUAGES } from '@transcribe/core';
import { createBotI18n, translatorFor } from './bot-i18n.ts';
import { languageLabel } from './match-language.ts';
import {
  languageKeyboard,
  LIKELY_TARGET_LANGUAGES,
  parseResultAction,
  resultKeyboard,
  severalSpeakers,
  speakersKeyboard,
  targetLanguageOrder,
} from './result-buttons.ts';

const t = translatorFor(createBotI18n(), 'en');
const reader = { t, locale: 'en' };

const id = 'abcdefghijklmnopqrstuvwxyz';

function allData(keyboard: InlineKeyboard): string[] {
  return keyboard.inline_keyboard.flat().map((button) => ('callback_data' in button ? button.callback_data : ''));
}

describe('result buttons', () => {
  it('should make callback data of at most 64 bytes that reads back to the same action', () => {
    const data = [...allData(resultKeyboard(id, { t })), ...allData(resultKeyboard(id, { all: true, t }))];
    for (let page = 0; page < 9; page += 1) data.push(...allData(languageKeyboard(id, 'translated_subtitles', page, reader)));
    for (const item of data) {
      expect(Buffer.byteLength(item)).toBeLessThanOrEqual(64);
      expect(parseResultAction(item)).not.toBeNull();
    }
    expect(parseResultAction(`pp:${id}:0`)).toEqual({ action: 'run', predictionId: id, type: 'summary', targetLanguage: null });
    expect(parseResultAction(`pt:${id}:14:de`)).toEqual({ action: 'run', predictionId: id, type: 'translation', targetLanguage: 'de' });
    expect(parseResultAction(`pm:${id}`)).toEqual({ action: 'more', predictionId: id });
    data.push(...allData(speakersKeyboard(id, t)), ...allData(resultKeyboard(id, { postProcess: false, t })));
    for (const item of data) expect(parseResultAction(item)).not.toBeNull();
    expect(parseResultAction(`pf:${id}:pdf`)).toEqual({ action: 'file', predictionId: id, format: 'pdf' });
    expect(parseResultAction(`pr:${id}:2`)).toEqual({ action: 'rerun', predictionId: id, speakers: 2 });
    expect(parseResultAction(`ps:${id}`)).toEqual({ action: 'speakers', predictionId: id });
    const named = resultKeyboard(id, { postProcess: false, nameSpeakers: true, t });
    expect(named.inline_keyboard.at(-1)!.map((button) => button.text)).toEqual(['👥 Speakers…', '🏷 Name speakers']);
    expect(parseResultAction(`pn:${id}`)).toEqual({ action: 'name', predictionId: id });
    expect(parseResultAction(`pn:${id}:1`)).toBeNull();
    const segment = (speaker: string | null) => ({ start: 0, end: 1, text: 'x', speaker, language: null, words: [] });
    expect(severalSpeakers({ segments: [segment('SPEAKER_1'), segment('SPEAKER_1'), segment(null)] })).toBe(false);
    expect(severalSpeakers({ segments: [segment('SPEAKER_1'), segment('SPEAKER_2')] })).toBe(true);
  });

  it('should put the preferred languages first in the picker, once each, then the likely ones, then the rest by name', () => {
    const names = languageKeyboard(id, 'translation', 0, { ...reader, preferred: ['uk', 'de', 'uk'] })
      .inline_keyboard.flat()
      .map((button) => button.text);
    expect(names.slice(0, 5)).toEqual(['Ukrainian', 'German', 'English', 'Spanish', 'French']);
    expect(names).not.toContain('Afrikaans'); // a rare target waits on a later page
    expect(new Set(names).size).toBe(names.length);
    // Past the likely ones, the rest follow in the alphabetical order of the reader's names.
    const order = targetLanguageOrder([], 'ru').slice(LIKELY_TARGET_LANGUAGES.length);
    const labels = order.map((code) => languageLabel(code, 'ru'));
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'ru')));
    expect(labels[0]).toBe('Азербайджанский');
    const russian = languageKeyboard(id, 'translation', 0, { t: translatorFor(createBotI18n(), 'ru'), locale: 'ru', preferred: ['de'] });
    expect(russian.inline_keyboard.flat().map((button) => button.text)).toEqual(expect.arrayContaining(['Немецкий', '◀ Назад']));
    expect(
      resultKeyboard(id, { postProcess: false, t })
        .inline_keyboard.flat()
        .map((button) => button.text),
    ).toEqual(['📄 .txt', '📄 .srt', '📄 .docx', '📄 .pdf', '👥 Speakers…']);
  });

  it('should offer a way back from "More…" to the first few', () => {
    const more = resultKeyboard(id, { all: true, t });
    const back = more.inline_keyboard.flat().find((button) => button.text === '◀ Back');
    expect(back && 'callback_data' in back ? parseResultAction(back.callback_data!) : null).toEqual({ action: 'back', predictionId: id });
    expect(more.inline_keyboard.flat().map((button) => button.text)).not.toContain('More…');
  });

  it('should offer every language of spec 2.5 across the picker pages', () => {
    const codes = new Set<string>();
    for (let page = 0; page < 9; page += 1) {
      for (const item of allData(languageKeyboard(id, 'translation', page, reader)))
        if (item.startsWith('pt:')) codes.add(item.split(':')[3]!);
    }
    expect(codes.size).toBe(LANGUAGES.length);
  });

  it('should refuse foreign or broken data', () => {
    for (const bad of [
      `pf:${id}:exe`,
      `pr:${id}:0`,
      `pr:${id}:7`,
      `ps:${id}:1`,
      `pb:${id}:x`,
      '',
      'pp:short:0',
      `pp:${id}:16`,
      `pp:${id}:99`,
      `pt:${id}:14:xx`,
      `pl:${id}:0:x`,
      `pm:${id}:0`,
      `menu/${id}`,
    ]) {
      expect(parseResultAction(bad)).toBeNull();
    }
  });
});
