import { createPocketsphinxEngine } from './pocketsphinx-engine.ts';
import { detectSpeech } from './detect-speech.ts';
import { resolveDefaultVadModelPath } from './locate-vad-model.ts';
const wavPath = process.argv[2]!;
const speech = await detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
console.log(JSON.stringify(speech));
const segs = await createPocketsphinxEngine({ processes: 1 }).recognize({ wavPath, durationSeconds: 11, speech, language: 'en', prompt: null, hotwords: [] });
for (const s of segs) console.log(s.words.map(w => `${w.text}@${w.start}-${w.end}`).join(' '));
