'use strict';
/**
 * Child of start-tied-children.ts: says `blocking` over IPC, then blocks its event loop for 10 minutes
 * in one synchronous call (Atomics.wait), as a sherpa-onnx child does inside a native decode: it cannot
 * notice that its parent died (no `disconnect` event is handled while it blocks).
 */
process.send('blocking', () => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600_000);
});
