import { runPocketsphinxBatch } from './run-pocketsphinx-batch.ts';
const c = new AbortController();
setTimeout(() => { console.log('abort', Date.now()); c.abort(new Error('x')); }, 300);
await runPocketsphinxBatch({ binaryPath: '/usr/bin/pocketsphinx_batch', modelDir: '/usr/share/pocketsphinx/model/en-us', wavPath: '/work/shared/audio/long_hifitts6097_concat_16k.wav', dataOffset: 44, durationSeconds: 300, utterances: [{start:0,end:30},{start:30,end:60}], firstId: 0, timeoutMs: 60000, signal: c.signal }).catch(e => console.log('rejected', e.message, Date.now()));
await new Promise(r => setTimeout(r, 15000));
