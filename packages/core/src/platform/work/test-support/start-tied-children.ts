/**
 * Test helper process (tie-child-to-parent.test.ts): starts the two kinds of children the service
 * starts, then waits to be killed. `sleep 600` through spawnTrackedChild stands for ffmpeg and
 * pocketsphinx_batch; block-event-loop.child.cjs through forkNodeChild stands for a sherpa-onnx child
 * inside its one long native call (its event loop never turns). Once the node child says it is
 * blocking, prints one JSON line `{ "sleeper": pid, "blocked": pid, "tied": boolean }` on stdout.
 * Run: `node --import tsx start-tied-children.ts`.
 */
import { fileURLToPath } from 'node:url';
import { forkNodeChild } from '../fork-node-child.ts';
import { parentDeathSupport } from '../tie-child-to-parent.ts';
import { spawnTrackedChild } from '../track-child-process.ts';

const sleeper = spawnTrackedChild('sleep', ['600'], { stdio: 'ignore' });
const blocked = forkNodeChild(fileURLToPath(new URL('./block-event-loop.child.cjs', import.meta.url)), {
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
blocked.once('message', () => {
  console.log(JSON.stringify({ sleeper: sleeper.pid, blocked: blocked.pid, tied: parentDeathSupport().available }));
});
setInterval(() => {}, 60_000); // stays until killed
