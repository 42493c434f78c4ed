// The Live page's audio worklet (live.js loads it): takes the microphone at the AudioContext's
// rate, low-passes and resamples it to `targetRate` (24 kHz: the realtime socket's audio/pcm), and
// posts 16-bit little-endian mono PCM in chunks of `chunkSamples` (2400 = 100 ms) as ArrayBuffers.
// A windowed-sinc low-pass (Blackman, 63 taps) at 0.92 × the target's Nyquist keeps what is above it
// from folding into speech; the resampling between filtered samples is linear.
'use strict';

var TAPS = 63;

function lowPass(cutoff) {
  // cutoff in cycles per input sample (< 0.5); unit gain at 0 Hz.
  var taps = new Float32Array(TAPS);
  var middle = (TAPS - 1) / 2;
  var sum = 0;
  for (var i = 0; i < TAPS; i++) {
    var x = i - middle;
    var sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    var window = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (TAPS - 1));
    taps[i] = sinc * window;
    sum += taps[i];
  }
  for (var j = 0; j < TAPS; j++) taps[j] /= sum;
  return taps;
}

class Pcm16Resampler extends AudioWorkletProcessor {
  constructor(options) {
    super();
    var settings = (options && options.processorOptions) || {};
    this.targetRate = settings.targetRate || 24000;
    this.chunkSamples = settings.chunkSamples || 2400;
    this.step = sampleRate / this.targetRate; // input samples per output sample
    this.taps = this.step > 1 ? lowPass((0.5 / this.step) * 0.92) : null; // upsampling needs no low-pass
    this.history = new Float32Array(TAPS); // the last TAPS input samples, a ring
    this.at = 0; // ring position of the next sample
    this.index = -1; // index of the last filtered sample
    this.previous = 0; // filtered sample index - 1
    this.current = 0; // filtered sample index
    this.next = 0; // position (in input samples) of the next output sample
    this.out = new DataView(new ArrayBuffer(this.chunkSamples * 2));
    this.filled = 0;
    this.port.onmessage = () => this.flush(); // any message: send what is gathered
  }

  filter(sample) {
    if (!this.taps) return sample;
    this.history[this.at] = sample;
    this.at = (this.at + 1) % TAPS;
    var sum = 0;
    for (var i = 0, k = this.at; i < TAPS; i++, k = (k + 1) % TAPS) sum += this.taps[i] * this.history[k];
    return sum;
  }

  emit(value) {
    var clipped = Math.max(-1, Math.min(1, value));
    this.out.setInt16(this.filled * 2, clipped < 0 ? clipped * 0x8000 : clipped * 0x7fff, true);
    this.filled++;
    if (this.filled === this.chunkSamples) this.flush();
  }

  flush() {
    if (this.filled === 0) return;
    var buffer = this.out.buffer.slice(0, this.filled * 2);
    this.port.postMessage(buffer, [buffer]);
    this.filled = 0;
  }

  process(inputs) {
    var channels = inputs[0];
    if (!channels || channels.length === 0) return true;
    var frames = channels[0].length;
    for (var n = 0; n < frames; n++) {
      var sample = 0;
      for (var c = 0; c < channels.length; c++) sample += channels[c][n];
      this.previous = this.current;
      this.current = this.filter(sample / channels.length);
      this.index++;
      while (this.next <= this.index) {
        var fraction = this.next - (this.index - 1);
        this.emit(this.previous + (this.current - this.previous) * fraction);
        this.next += this.step;
      }
    }
    return true;
  }
}

registerProcessor('pcm16-resampler', Pcm16Resampler);
