import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createStageLog } from './stage-log.ts';

describe('a prediction’s stage log', () => {
  it('should let write fail the work and note drop the line, never throwing (an unhandled rejection fails this run)', async () => {
    const stored: string[] = [];
    const log = createStageLog(async (line) => {
      if (line.startsWith('lost')) throw new Error('the database is down');
      stored.push(line);
    });
    await expect(log.write('lost: a stage end')).rejects.toThrow('the database is down');
    expect(log.note('lost: recognized 40%')).toBeUndefined();
    log.note('recognized 80%', { seconds: 1.5 });
    await nextTurn();
    expect(stored).toEqual(['recognized 80%']);
  });
});
