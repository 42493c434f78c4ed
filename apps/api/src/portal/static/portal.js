// The account portal's only script: copy buttons, the upload with a progress bar, and following a
// transcription to its end. Every page also works without it. Its words come from the page
// (<body data-texts>, in the reader's language: pages/layout.ts).
'use strict';

(function () {
  var texts = {};
  function say(key) {
    return texts[key] || key;
  }
  var live = document.createElement('div');
  live.className = 'visually-hidden';
  live.setAttribute('aria-live', 'polite');
  document.addEventListener('DOMContentLoaded', function () {
    try {
      texts = JSON.parse(document.body.getAttribute('data-texts') || '{}');
    } catch {
      texts = {};
    }
    document.body.appendChild(live);
    setUpCopyButtons();
    setUpUpload();
    followProgress();
  });

  function announce(text) {
    live.textContent = '';
    window.setTimeout(function () {
      live.textContent = text;
    }, 50);
  }

  // Copy buttons: data-copy names the element whose value or text is copied.
  function setUpCopyButtons() {
    document.querySelectorAll('[data-copy]').forEach(function (button) {
      button.addEventListener('click', function () {
        var target = document.getElementById(button.getAttribute('data-copy'));
        if (!target) return;
        var text = 'value' in target ? target.value : target.textContent;
        copyText(text, target).then(
          function () {
            var label = button.textContent;
            button.textContent = say('portal-copied');
            announce(say('portal-copied-announce'));
            window.setTimeout(function () {
              button.textContent = label;
            }, 2000);
          },
          function () {
            announce(say('portal-copy-failed'));
          },
        );
      });
    });
  }

  function copyText(text, target) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.className = 'visually-hidden';
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand('copy');
      document.body.removeChild(area);
      if (target && target.focus) target.focus();
      if (ok) resolve();
      else reject(new Error('copy refused'));
    });
  }

  // The transcribe form: posted with XMLHttpRequest so the upload's progress can be shown.
  function setUpUpload() {
    var form = document.getElementById('transcribe-form');
    if (!form || !window.FormData || !window.XMLHttpRequest) return;
    var box = document.getElementById('upload-progress');
    var bar = document.getElementById('upload-bar');
    var percent = document.getElementById('upload-percent');
    var error = document.getElementById('form-error');
    var button = form.querySelector('button[type="submit"]');
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var file = form.querySelector('input[type="file"]').files[0];
      var maxBytes = Number(form.getAttribute('data-max-bytes'));
      if (file && maxBytes && file.size > maxBytes)
        return showError({ detail: form.getAttribute('data-too-large'), field_id: 'audio-file', field: 'audio' });
      var request = new XMLHttpRequest();
      request.open('POST', form.action);
      request.setRequestHeader('Accept', 'application/json');
      request.setRequestHeader('X-CSRF-Token', form.querySelector('input[name="csrf"]').value);
      request.upload.addEventListener('progress', function (progress) {
        if (!progress.lengthComputable) return;
        var value = Math.round((progress.loaded / progress.total) * 100);
        bar.value = value;
        percent.textContent = value + '%';
      });
      request.addEventListener('load', function () {
        var body = {};
        try {
          body = JSON.parse(request.responseText);
        } catch {
          /* not JSON */
        }
        if (request.status === 201 && body.url) {
          percent.textContent = say('portal-uploaded');
          window.location.assign(body.url);
          return;
        }
        showError(body.detail ? body : { detail: say('portal-answered-status').replace('%s', String(request.status)) });
      });
      request.addEventListener('error', function () {
        showError({ detail: say('portal-upload-failed') });
      });
      clearFieldErrors();
      error.hidden = true;
      box.hidden = false;
      bar.value = 0;
      percent.textContent = file ? '0%' : say('portal-sending-link');
      button.disabled = true;
      form.setAttribute('aria-busy', 'true');
      request.send(new FormData(form));
    });

    // A refusal: its words at the top (a link to the field, a note when they are the service's
    // English, a page that helps) and under the field it concerns, which is marked invalid.
    function showError(problem) {
      clearFieldErrors();
      error.textContent = '';
      var field = problem.field_id ? document.getElementById(problem.field_id) : null;
      if (field) {
        var lead = document.createElement('p');
        var jump = document.createElement('a');
        jump.href = '#' + problem.field_id;
        jump.textContent = error.getAttribute('data-lead');
        lead.appendChild(jump);
        error.appendChild(lead);
      }
      if (problem.detail_note) error.appendChild(paragraph(problem.detail_note, 'hint'));
      error.appendChild(paragraph(problem.detail));
      if (problem.help) {
        var help = paragraph(problem.help.before || '');
        var link = document.createElement('a');
        link.href = problem.help.href;
        link.textContent = problem.help.text;
        help.appendChild(link);
        help.appendChild(document.createTextNode(problem.help.after || ''));
        error.appendChild(help);
      }
      if (field) {
        var message = paragraph(problem.detail, 'field-error');
        message.id = problem.field + '-error';
        var container = field.closest('.field') || field.closest('fieldset');
        (container || field.parentNode).appendChild(message);
        field.setAttribute('aria-invalid', 'true');
        var described = field.getAttribute('aria-describedby');
        field.setAttribute('data-described', described || '');
        field.setAttribute('aria-describedby', message.id + (described ? ' ' + described : ''));
      }
      error.hidden = false;
      box.hidden = true;
      button.disabled = false;
      form.removeAttribute('aria-busy');
      error.focus();
    }

    function paragraph(words, className) {
      var element = document.createElement('p');
      element.textContent = words;
      if (className) element.className = className;
      return element;
    }

    function clearFieldErrors() {
      form.querySelectorAll('.field-error').forEach(function (element) {
        element.remove();
      });
      form.querySelectorAll('[aria-invalid]').forEach(function (field) {
        field.removeAttribute('aria-invalid');
        var described = field.getAttribute('data-described');
        if (described) field.setAttribute('aria-describedby', described);
        else if (described !== null) field.removeAttribute('aria-describedby');
        field.removeAttribute('data-described');
      });
    }
  }

  // A running transcription's page: read its progress every second, reload when it has ended.
  function followProgress() {
    var section = document.getElementById('progress');
    if (!section || section.getAttribute('data-done') === '1') return;
    var url = section.getAttribute('data-progress-url');
    var label = document.getElementById('progress-label');
    var bar = document.getElementById('progress-bar');
    var wait = document.getElementById('queue-wait');
    var failures = 0;
    // While it waits: its place and wait in words (queue.json), shown under the bar.
    function showWait() {
      if (!wait) return;
      fetch(wait.getAttribute('data-queue-url'), { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (response) {
          return response.ok ? response.json() : { wait: null };
        })
        .then(function (answer) {
          wait.hidden = !answer.wait;
          if (answer.wait && wait.textContent !== answer.wait) wait.textContent = answer.wait;
        })
        .catch(function () {});
    }
    function poll() {
      fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.json();
        })
        .then(function (progress) {
          failures = 0;
          bar.value = progress.percent;
          if (label.textContent !== progress.stage) label.textContent = progress.stage;
          showWait();
          if (progress.done) window.location.reload();
          else window.setTimeout(poll, 1000);
        })
        .catch(function () {
          failures += 1;
          if (failures < 30) window.setTimeout(poll, Math.min(10000, 1000 * failures));
          else label.textContent = say('portal-lost-contact');
        });
    }
    window.setTimeout(poll, 1000);
  }
})();
