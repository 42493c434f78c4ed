import { describe, expect, it } from 'vitest';
import { describeProgress } from './describe-progress.ts';
import { english, russian } from './test-support/english-texts.ts';

const started = new Date();

describe('describeProgress', () => {
  it('should show the download, then the queue', () => {
    expect(describeProgress({ downloadedBytes: null, prediction: null }, english)).toBe('⏳ Getting the file from Telegram…');
    expect(describeProgress({ downloadedBytes: 2_000_000, prediction: { status: 'processing', startedAt: null, logs: '' } }, english)).toBe(
      '✅ File received (1.9 MiB)\n⏳ Waiting in the queue…',
    );
  });

  it('should show the place in the queue when it is known', () => {
    const waiting = { status: 'processing', startedAt: null, logs: '' };
    expect(describeProgress({ downloadedBytes: 2_000_000, prediction: waiting, ahead: 3 }, english)).toMatch(
      /⏳ Waiting in the queue \(3 ahead\)…$/,
    );
    expect(describeProgress({ downloadedBytes: 2_000_000, prediction: waiting, ahead: 0 }, english)).toMatch(
      /⏳ Waiting in the queue \(next in line\)…$/,
    );
  });

  it('should add the estimated wait under the place when the queue gives one', () => {
    const waiting = { status: 'processing', startedAt: null, logs: '' };
    expect(describeProgress({ downloadedBytes: 2_000_000, prediction: waiting, ahead: 3, waitMinutes: 2 }, english)).toMatch(
      /⏳ Waiting in the queue \(3 ahead\)…\n🕒 About 2 min until it starts$/,
    );
  });

  it('should follow the log lines of the worker stage by stage', () => {
    const logs = [
      '2025-01-01T00:00:00.000Z decoded 11.0 s of audio (wav)',
      '2025-01-01T00:00:01.000Z VAD: 4 speech intervals, 8.94 s of speech',
      '2025-01-01T00:00:02.000Z recognized 0%',
      '2025-01-01T00:00:03.000Z recognized 40%',
    ].join('\n');
    expect(describeProgress({ downloadedBytes: 500, prediction: { status: 'processing', startedAt: started, logs } }, english)).toBe(
      '✅ File received (1 KiB)\n✅ Audio decoded (11.0 s)\n✅ Speech found (8.9 s)\n⏳ Recognising speech… 40%',
    );
    const done = `${logs}\nx recognized 100%\nx succeeded`;
    expect(
      describeProgress({ downloadedBytes: 500, prediction: { status: 'succeeded', startedAt: started, logs: done } }, english),
    ).toMatch(/✅ Speech recognised$/);
  });

  it('should say when no speech was found', () => {
    const logs = 'x decoded 10.0 s of audio (wav)\nx VAD: no speech';
    expect(describeProgress({ downloadedBytes: 500, prediction: { status: 'processing', startedAt: started, logs } }, english)).toMatch(
      /none found$/,
    );
  });

  it('should say "Recognising speech…" without a number while recognition stands at 0 %', () => {
    const logs = 'x decoded 4.0 s of audio (ogg)\nx VAD: 1 speech interval, 3.52 s of speech\nx recognized 0%';
    const shown = describeProgress({ downloadedBytes: 500, prediction: { status: 'processing', startedAt: started, logs } }, english);
    expect(shown).toMatch(/⏳ Recognising speech…$/);
    expect(shown).not.toMatch(/0%/);
  });

  it('should write decimals with a comma in Russian', () => {
    const logs = 'x decoded 11.0 s of audio (wav)\nx VAD: 4 speech intervals, 8.94 s of speech\nx recognized 40%';
    expect(describeProgress({ downloadedBytes: 2_000_000, prediction: { status: 'processing', startedAt: started, logs } }, russian)).toBe(
      '✅ Файл получен (1,9 МиБ)\n✅ Звук декодирован (11,0 с)\n✅ Речь найдена (8,9 с)\n⏳ Распознаю речь… 40%',
    );
  });
});
