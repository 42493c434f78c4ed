import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from "vitest";
let start = 0;
let cStart = 0;
function children(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) * 10; // cutime+cstime in ms (HZ=100)
}
beforeAll(() => {
  const u = process.cpuUsage();
  start = (u.user + u.system) / 1000;
  cStart = children();
});
afterAll(() => {
  const u = process.cpuUsage();
  const self = (u.user + u.system) / 1000;
  appendFileSync('/tmp/cpu/results.tsv', `${Math.round(self)}\t${Math.round(self - start)}\t${children() - cStart}\t${children()}\t${process.env.VITEST_POOL_ID}\t${expect.getState().testPath}\n`);
});
