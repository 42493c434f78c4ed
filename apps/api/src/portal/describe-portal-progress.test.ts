import { describe, expect, it } from 'vitest';
import { describePortalProgress } from './describe-portal-progress.ts';

const started = new Date();
const at = (logs: string, status = 'processing', startedAt: Date | null = started, error: string | null = null) =>
  describePortalProgress({ status, startedAt, logs, error });

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
});
