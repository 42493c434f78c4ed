import { describe, expect, it } from 'vitest';
import { hideServerPaths } from './hide-server-paths.ts';

describe('hideServerPaths', () => {
  it('should cut every absolute path to its last part, wherever it starts a word', () => {
    expect(
      hideServerPaths(
        'what():  Load model from /srv/models/sherpa-onnx-whisper-tiny/tiny-decoder.int8.onnx failed:Protobuf parsing failed.',
      ),
    ).toBe('what():  Load model from tiny-decoder.int8.onnx failed:Protobuf parsing failed.');
    expect(hideServerPaths('/m/x/tokens.txt is missing; (MODELS_DIR=/m/) "/a/b" (/c/d) [/e/f]')).toBe(
      'tokens.txt is missing; (MODELS_DIR=m) "b" (d) [f]',
    );
    expect(hideServerPaths('Silero VAD model /opt/vad/silero.onnx is empty: see docs')).toBe(
      'Silero VAD model silero.onnx is empty: see docs',
    );
  });

  it('should keep URLs, MIME types and commands as they are', () => {
    const kept = 'The link https://example.com/a/b.mp3 answered 404; audio/mpeg; run `npm run models -- download x`; 3/4 done';
    expect(hideServerPaths(kept)).toBe(kept);
    expect(hideServerPaths('no path here')).toBe('no path here');
    expect(hideServerPaths('/')).toBe('/');
  });
});
