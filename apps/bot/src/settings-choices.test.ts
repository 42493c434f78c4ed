import { describe, expect, it } from 'vitest';
import { english, russian } from './test-support/english-texts.ts';
import { languageQuestion } from './settings-choices.ts';

describe('the /settings language question', () => {
  it('should offer typing any language when the engine takes any', () => {
    const question = languageQuestion('any', { t: english, locale: 'en' });
    expect(question.text).toBe(english('settings-question-language'));
    expect(question.text).toMatch(/type its name or code/);
    expect(question.parseText('deutsch')).toBe('de');
    expect(question.explain('klingonish')).toBe(english('settings-pick-a-button'));
  });

  it('should name an engine’s few languages, show all as buttons, and refuse the others by name', () => {
    const question = languageQuestion(['en', 'ru'], { t: english, locale: 'en' });
    expect(question.text).toBe('Which language is spoken in your recordings? This server recognises English and Russian.');
    expect(question.choices.map((choice) => choice.value)).toEqual(['auto', 'en', 'ru']);
    expect(question.parseText('русский')).toBe('ru');
    expect(question.parseText('de')).toBeNull();
    expect(question.explain('de')).toBe(
      'This server recognises only English and Russian, not German. Pick one of the buttons above (or /cancel).',
    );
    const inRussian = languageQuestion(['en', 'ru'], { t: russian, locale: 'ru' });
    expect(inRussian.text).toBe('На каком языке говорят в ваших записях? Этот сервер распознаёт такие языки: английский и русский.');
  });
});
