import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

/** A write that records each batch it got and answers after the test lets it (one commit at a time). */
function recordingWrite(refuse: (item: number) => boolean = () => false) {
  const batches: number[][] = [];
  const pending: Array<() => void> = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push([...items]);
      pending.push(() => (items.some(refuse) ? reject(new Error(`refused ${items.join(',')}`)) : resolve(items.map((n) => `row ${n}`))));
    });
  const commitNext = async () => {
    while (pending.length === 0) await new Promise((r) => setImmediate(r));
    pending.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, write, commitNext };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('groupCommit', () => {
  it('should write the items of one event-loop turn together, and those that arrive meanwhile in the next write', async () => {
    const { batches, write, commitNext } = recordingWrite();
    const insert = groupCommit(write);
    const first = [insert(1), insert(2)];
    expect(batches).toEqual([]); // not before this turn of the event loop ends
    await nextTurn();
    expect(batches).toEqual([[1, 2]]);
    const rest = [insert(3), insert(4), insert(5)];
    await commitNext();
    await commitNext();
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    expect(await Promise.all(first)).toEqual(['row 1', 'row 2']);
    expect(await Promise.all(rest)).toEqual(['row 3', 'row 4', 'row 5']);
  });

  it('should write a lone item of a quiet moment after one turn, without a timer', async () => {
    const { batches, write, commitNext } = recordingWrite();
    const insert = groupCommit(write);
    const lone = insert(1);
    await nextTurn();
    expect(batches).toEqual([[1]]);
    await commitNext();
    expect(await lone).toBe('row 1');
  });

  it('should split a burst into writes of at most maxBatch items, in arrival order', async () => {
    const { batches, write, commitNext } = recordingWrite();
    const insert = groupCommit(write, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => insert(n));
    for (let i = 0; i < 3; i += 1) await commitNext();
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    expect(await Promise.all(all)).toEqual(['row 1', 'row 2', 'row 3', 'row 4', 'row 5']);
  });

  it('should fail only the item the database refuses: a failed batch is written again item by item', async () => {
    const { batches, write, commitNext } = recordingWrite((n) => n === 3);
    const insert = groupCommit(write);
    const first = insert(1);
    await nextTurn();
    const rest = [2, 3, 4].map((n) => insert(n).then(String, (error: Error) => error.message));
    for (let i = 0; i < 5; i += 1) await commitNext();
    expect(await first).toBe('row 1');
    expect(await Promise.all(rest)).toEqual(['row 2', 'refused 3', 'row 4']);
    expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('should reject when the write returns a different number of results than items', async () => {
    const insert = groupCommit(async (items: number[]) => items.slice(1));
    await expect(insert(7)).rejects.toThrow('a group write of 1 items returned 0 results');
  });

  it('should keep writing after a failure: the next item starts a new write', async () => {
    let calls = 0;
    const insert = groupCommit(async (items: number[]) => {
      calls += 1;
      if (calls === 1) throw new Error('database away');
      return items.map((n) => n * 10);
    });
    await expect(insert(1)).rejects.toThrow('database away');
    expect(await insert(2)).toBe(20);
  });
});
