import type { DecodedUtterance, RecognizedSegment } from './recognition-engine.ts';

/**
 * Puts the utterances an engine reports as it decodes them (RecognitionRequest.onUtterance: parallel
 * decoders finish out of order) back in the order of the recording: `emit` is called with each
 * utterance's segments once it and every utterance before it have been reported, so text shown early
 * reads in the order it was spoken. A repeated or out-of-range index is ignored.
 * @returns the function to hand to the engine as `onUtterance`.
 */
export function orderDecodedUtterances(emit: (segments: RecognizedSegment[]) => void): (done: DecodedUtterance) => void {
  const waiting = new Map<number, RecognizedSegment[]>();
  let next = 0;
  return (done) => {
    if (done.index < next || done.index >= done.count || waiting.has(done.index)) return;
    waiting.set(done.index, done.segments);
    for (let segments = waiting.get(next); segments !== undefined; segments = waiting.get(next)) {
      waiting.delete(next++);
      emit(segments);
    }
  };
}
