import { describe, expect, it } from 'vitest';
import { describePortalProgress } from './describe-portal-progress.ts';
import { portalTranslator } from './portal-i18n.ts';

const started = new Date();
const english = portalTranslator('en');
const at = (logs: string, status = 'processing', startedAt: Date | null = started, error: string | null = null) =>
  describePortalProgress({ status, startedAt, logs, error }, english);

describe('describePortalProgress', () => {
  it('should follow the stages of the log to the end', () => {
    expect(at('', 'processing', null)).toEqual({ status: 'processing', stage: 'Waiting in the queue…', percent: 2, done: false });
    expect(at('t downloaded 1000 bytes\n').stage).toBe('Getting the recording…');
    expect(at('t decoded 11.0 s of audio (wav)\n')).toMatchObject({ stage: 'Looking for speech…', percent: 15 });
    expect(at('t decoded 11.0 s\nt VAD: 2 speech intervals, 8.9 s of speech\n').percent).toBe(20);
    expect(at('t VAD: 2 speech intervals\nt recognized 20%\nt recognized 60%\n')).toMatchObject({
      stage: 'Recognising speech… 60%',
      percent: 65,
    });
    expect(at('t recognized 100%\n')).toMatchObject({ stage: 'Finishing…', percent: 95 });
    expect(at('t recognized 100%\nt post-processing summary with model m\n').stage).toBe('Post-processing the transcript…');
    expect(at('t transcript taken from the cache: same link\n').stage).toBe('Transcript taken from the cache…');
  });

  it('should end at 100% for every terminal status, with the error of a failure', () => {
    expect(at('', 'succeeded')).toEqual({ status: 'succeeded', stage: 'Done', percent: 100, done: true });
    expect(at('', 'failed', started, 'The link answered 404.')).toMatchObject({ stage: 'Failed: The link answered 404.', done: true });
    expect(at('', 'canceled')).toMatchObject({ stage: 'Canceled', done: true });
  });

  it('should say "Recognising speech…" without a number at 0 %, and speak Russian', () => {
    expect(at('t VAD: 1 speech interval, 3.5 s of speech\nt recognized 0%\n')).toMatchObject({ stage: 'Recognising speech…', percent: 20 });
    const russian = portalTranslator('ru');
    expect(
      describePortalProgress({ status: 'processing', startedAt: started, logs: 't recognized 40%\n', error: null }, russian).stage,
    ).toBe('Распознаю речь… 40%');
    expect(describePortalProgress({ status: 'processing', startedAt: null, logs: '', error: null }, russian).stage).toBe('Жду в очереди…');
  });
});
