// The portal's Live page: the microphone → live-worklet.js (24 kHz PCM16) → the realtime WebSocket
// (OpenAI's Realtime transcription protocol, docs/live.md) at the page's own origin, which the
// browser opens with the portal session cookie (no key in this script). A phrase appears in the list
// as soon as the server hears speech, with its start time; its end time and text follow. Its words
// come from the page (<section id="live" data-texts>, in the reader's language: pages/live-page.ts).
'use strict';

(function () {
  /** Close codes of the socket's own refusals (4000 + the HTTP status: attach-realtime-server.ts). */
  var SIGNED_OUT = 4401;
  var TOO_MANY = 4429;
  var RATE = 24000;

  document.addEventListener('DOMContentLoaded', function () {
    var root = document.getElementById('live');
    if (!root) return;
    var texts = {};
    try {
      texts = JSON.parse(root.getAttribute('data-texts') || '{}');
    } catch {
      texts = {};
    }
    function say(key, value) {
      var text = texts[key] || key;
      return value === undefined ? text : text.replace('%s', value);
    }
    var button = document.getElementById('live-toggle');
    var status = document.getElementById('live-status');
    var errorBox = document.getElementById('live-error');
    var list = document.getElementById('live-turns');
    var empty = document.getElementById('live-empty');
    var decimal = (1.5).toLocaleString(document.documentElement.lang || 'en').charAt(1);

    var state = 'idle'; // idle → starting → running → finishing → idle
    var socket = null;
    var opened = false;
    var closingByUs = false;
    var audio = null; // { stream, context, node }
    var waiting = []; // appends made before the socket opened
    var turns = {}; // item_id → { li, head, text, start, end, words, done }
    var speaking = null; // item_id of a phrase whose speech started and has not stopped
    var sentSamples = 0;
    var stopCommit = null; // event_id of the commit Stop sends while someone speaks

    button.disabled = false;
    button.addEventListener('click', function () {
      if (state === 'idle') start();
      else if (state === 'starting' || state === 'running') stop();
    });

    function setState(next, statusKey) {
      state = next;
      if (statusKey) status.textContent = say(statusKey);
      button.textContent = say(next === 'idle' ? 'portal-live-start' : 'portal-live-stop');
      button.disabled = next === 'finishing';
      if (next === 'idle') root.removeAttribute('aria-busy');
      else root.setAttribute('aria-busy', 'true');
    }

    function showError(text) {
      var paragraph = document.createElement('p');
      paragraph.textContent = text;
      errorBox.appendChild(paragraph);
      errorBox.hidden = false;
    }

    function clearError() {
      errorBox.textContent = '';
      errorBox.hidden = true;
    }

    /** Ends the start with an error: everything opened so far is closed. */
    function fail(text) {
      showError(text);
      stopAudio();
      if (socket && socket.readyState <= 1) {
        closingByUs = true;
        socket.close(1000);
      }
      setState('idle', 'portal-live-status-stopped');
      errorBox.focus();
    }

    function start() {
      clearError();
      if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia)
        return fail(say('portal-live-error-insecure'));
      if (!window.AudioWorkletNode || !window.WebSocket) return fail(say('portal-live-error-unsupported'));
      opened = false;
      closingByUs = false;
      waiting = [];
      sentSamples = 0;
      speaking = null;
      stopCommit = null;
      setState('starting', 'portal-live-status-mic');
      navigator.mediaDevices
        .getUserMedia({ audio: { channelCount: 1 } })
        .then(
          function (stream) {
            if (state !== 'starting') return stopTracks(stream); // Stop was pressed meanwhile
            audio = { stream: stream, context: new AudioContext(), node: null };
            return audio.context.audioWorklet.addModule(root.getAttribute('data-worklet')).then(function () {
              if (state !== 'starting' || !audio) return;
              var node = new AudioWorkletNode(audio.context, 'pcm16-resampler', {
                processorOptions: { targetRate: RATE, chunkSamples: RATE / 10 },
              });
              node.port.onmessage = function (event) {
                send(event.data);
              };
              audio.context.createMediaStreamSource(stream).connect(node);
              node.connect(audio.context.destination); // it outputs silence; connected so that it is run
              audio.node = node;
              connect();
            });
          },
          function (error) {
            var name = (error && error.name) || '';
            if (name === 'NotAllowedError' || name === 'SecurityError') return fail(say('portal-live-error-denied'));
            if (name === 'NotFoundError' || name === 'OverconstrainedError') return fail(say('portal-live-error-no-mic'));
            fail(say('portal-live-error-mic', (name ? name + ': ' : '') + ((error && error.message) || '')));
          },
        )
        .catch(function (error) {
          fail(say('portal-live-error-mic', String((error && error.message) || error)));
        });
    }

    function connect() {
      setState('starting', 'portal-live-status-connecting');
      var scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(scheme + '//' + window.location.host + root.getAttribute('data-socket-path'), ['realtime']);
      socket.addEventListener('open', function () {
        opened = true;
        waiting.splice(0).forEach(function (message) {
          socket.send(message);
        });
        if (state === 'starting') setState('running', 'portal-live-status-listening');
      });
      socket.addEventListener('message', function (event) {
        var message;
        try {
          message = JSON.parse(event.data);
        } catch {
          return;
        }
        onEvent(message);
      });
      socket.addEventListener('close', onClose);
    }

    /** One 100 ms chunk of PCM16 from the worklet: counted and sent (or kept until the socket opens). */
    function send(buffer) {
      if (state !== 'starting' && state !== 'running') return;
      sentSamples += buffer.byteLength / 2;
      var message = JSON.stringify({ type: 'input_audio_buffer.append', audio: toBase64(buffer) });
      if (opened && socket.readyState === 1) socket.send(message);
      else waiting.push(message);
    }

    function toBase64(buffer) {
      var bytes = new Uint8Array(buffer);
      var binary = '';
      for (var i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      return window.btoa(binary);
    }

    function onEvent(event) {
      var id = event.item_id;
      switch (event.type) {
        case 'input_audio_buffer.speech_started':
          speaking = id;
          turn(id).start = event.audio_start_ms;
          if (state === 'running') status.textContent = say('portal-live-status-speech');
          render(id);
          return commitIfSpeaking(); // heard only after Stop (the VAD runs a little behind): end it now

        case 'input_audio_buffer.speech_stopped':
          if (speaking === id) speaking = null;
          turn(id).end = event.audio_end_ms;
          if (state === 'running') status.textContent = say('portal-live-status-listening');
          return render(id);
        case 'input_audio_buffer.committed':
          if (speaking === id) speaking = null;
          if (turn(id).end === undefined) turn(id).end = Math.round((sentSamples / RATE) * 1000); // Stop's commit: up to the audio sent
          return render(id);
        case 'conversation.item.input_audio_transcription.delta':
          turn(id).words = (turn(id).words || '') + (event.delta || '');
          return render(id);
        case 'conversation.item.input_audio_transcription.completed':
          turn(id).words = event.transcript || '';
          turn(id).done = true;
          render(id);
          return finishIfDone();
        case 'conversation.item.input_audio_transcription.failed':
          turn(id).failed = (event.error && event.error.message) || '';
          turn(id).done = true;
          render(id);
          return finishIfDone();
        case 'error':
          return onServerError(event.error || {});
        default:
          return undefined;
      }
    }

    function onServerError(error) {
      if (error.code === 'invalid_api_key' || error.code === 'rate_limited') return; // the close code says it in the reader's words
      if (stopCommit && error.event_id === stopCommit) {
        // Stop's commit found the buffer empty: the server had ended that phrase already, or it had no audio.
        if (speaking && turns[speaking] && turns[speaking].words === undefined) drop(speaking);
        speaking = null;
        return finishIfDone();
      }
      showError(say('portal-live-error-server', error.message || error.code || ''));
    }

    function onClose(event) {
      var wasStopping = closingByUs;
      stopAudio();
      socket = null;
      Object.keys(turns).forEach(function (id) {
        if (!turns[id].done) drop(id);
      });
      if (event.code === SIGNED_OUT) showError(say('portal-live-error-signed-out'));
      else if (event.code === TOO_MANY) showError(say('portal-live-error-too-many'));
      else if (!opened) showError(say('portal-live-error-connect'));
      else if (!wasStopping) showError(say('portal-live-error-closed', event.reason || String(event.code)));
      setState('idle', 'portal-live-status-stopped');
      if (!errorBox.hidden) errorBox.focus();
    }

    function stop() {
      stopAudio();
      if (!socket || !opened) {
        if (socket) {
          closingByUs = true;
          socket.close(1000);
        }
        return setState('idle', 'portal-live-status-stopped');
      }
      setState('finishing', 'portal-live-status-finishing');
      commitIfSpeaking();
      finishIfDone();
    }

    /** While stopping: ends the phrase being spoken (the microphone is off, so its speech will not stop by itself). */
    function commitIfSpeaking() {
      if (state !== 'finishing' || !speaking || !socket || socket.readyState !== 1) return;
      stopCommit = 'event_stop_' + speaking;
      socket.send(JSON.stringify({ type: 'input_audio_buffer.commit', event_id: stopCommit }));
    }

    /** While stopping: closes the socket once every phrase heard has its text. */
    function finishIfDone() {
      if (state !== 'finishing' || speaking) return;
      var pending = Object.keys(turns).some(function (id) {
        return !turns[id].done;
      });
      if (pending || !socket) return;
      closingByUs = true;
      socket.close(1000);
    }

    function stopAudio() {
      if (!audio) return;
      stopTracks(audio.stream);
      if (audio.node) audio.node.port.onmessage = null;
      audio.context.close().catch(function () {});
      audio = null;
    }

    function stopTracks(stream) {
      stream.getTracks().forEach(function (track) {
        track.stop();
      });
    }

    function turn(id) {
      if (!turns[id]) {
        var li = document.createElement('li');
        li.className = 'segment';
        var head = document.createElement('div');
        head.className = 'segment-head';
        var text = document.createElement('p');
        li.appendChild(head);
        li.appendChild(text);
        list.appendChild(li);
        empty.hidden = true;
        turns[id] = { li: li, head: head, text: text };
      }
      return turns[id];
    }

    function drop(id) {
      if (!turns[id]) return;
      list.removeChild(turns[id].li);
      delete turns[id];
      empty.hidden = list.children.length > 0;
    }

    function render(id) {
      var item = turns[id];
      item.head.textContent = clock(item.start) + ' – ' + clock(item.end);
      item.li.setAttribute('data-start-ms', item.start === undefined ? '' : String(item.start));
      item.li.setAttribute('data-end-ms', item.end === undefined ? '' : String(item.end));
      if (item.failed !== undefined) {
        item.text.className = 'field-error';
        item.text.textContent = say('portal-live-turn-failed', item.failed);
      } else if (item.done) {
        item.text.className = item.words ? '' : 'hint';
        item.text.textContent = item.words || say('portal-live-no-words');
      } else {
        item.text.className = item.words ? '' : 'hint';
        item.text.textContent = item.words || say('portal-live-recognising');
      }
    }

    /** Milliseconds from the start as m:ss.d (the page's decimal mark), or nothing when not known yet. */
    function clock(ms) {
      if (ms === undefined || ms === null) return '';
      var tenths = Math.floor(ms / 100);
      var seconds = Math.floor(tenths / 10) % 60;
      return Math.floor(tenths / 600) + ':' + (seconds < 10 ? '0' : '') + seconds + decimal + (tenths % 10);
    }
  });
})();
