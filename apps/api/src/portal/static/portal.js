// The account portal's only script (issue 11): copy buttons, the upload with a progress bar, and
// following a transcription to its end. Every page also works without it.
'use strict';

(function () {
  var live = document.createElement('div');
  live.className = 'visually-hidden';
  live.setAttribute('aria-live', 'polite');
  document.addEventListener('DOMContentLoaded', function () {
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
            button.textContent = 'Copied';
            announce('Copied to the clipboard');
            window.setTimeout(function () {
              button.textContent = label;
            }, 2000);
          },
          function () {
            announce('Copying did not work: select the text and copy it yourself');
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
        return showError('The file is larger than ' + Math.floor(maxBytes / 1048576) + ' MB, the most this service takes.');
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
          percent.textContent = 'Uploaded. Opening the transcription…';
          window.location.assign(body.url);
          return;
        }
        showError(body.detail || 'The service answered with status ' + request.status + '. Try again.');
      });
      request.addEventListener('error', function () {
        showError('The upload failed. Check your connection and try again.');
      });
      error.hidden = true;
      box.hidden = false;
      bar.value = 0;
      percent.textContent = file ? '0%' : 'Sending the link…';
      button.disabled = true;
      form.setAttribute('aria-busy', 'true');
      request.send(new FormData(form));
    });

    function showError(text) {
      error.textContent = '';
      var paragraph = document.createElement('p');
      paragraph.textContent = text;
      error.appendChild(paragraph);
      error.hidden = false;
      box.hidden = true;
      button.disabled = false;
      form.removeAttribute('aria-busy');
      error.focus();
    }
  }

  // A running transcription's page: read its progress every second, reload when it has ended.
  function followProgress() {
    var section = document.getElementById('progress');
    if (!section || section.getAttribute('data-done') === '1') return;
    var url = section.getAttribute('data-progress-url');
    var label = document.getElementById('progress-label');
    var bar = document.getElementById('progress-bar');
    var failures = 0;
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
          if (progress.done) window.location.reload();
          else window.setTimeout(poll, 1000);
        })
        .catch(function () {
          failures += 1;
          if (failures < 30) window.setTimeout(poll, Math.min(10000, 1000 * failures));
          else label.textContent = 'Lost contact with the service. Reload the page to see the status.';
        });
    }
    window.setTimeout(poll, 1000);
  }
})();
