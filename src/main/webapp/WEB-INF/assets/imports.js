// The OpenAPI import wizard: a chosen file is read into the document field with a progress bar, and while the
// gateway reads a large document the form shows that it is working (size sent, seconds elapsed).
(function () {
  const form = document.getElementById('import-form');
  if (!form) {
    return;
  }
  const file = document.getElementById('file');
  const documentField = document.getElementById('document');
  const box = document.getElementById('import-progress');
  const bar = document.getElementById('import-progress-bar');
  const text = document.getElementById('import-progress-text');
  const kb = (n) => Math.round(n / 1024) + ' KB';
  const show = (message, value, max) => {
    box.hidden = false;
    text.textContent = message;
    if (max) {
      bar.max = max;
      bar.value = value;
    } else {
      bar.removeAttribute('value');
    }
  };
  file.addEventListener('change', () => {
    const chosen = file.files && file.files[0];
    if (!chosen) {
      return;
    }
    const reader = new FileReader();
    reader.onprogress = (e) => show(text.dataset.reading.replace('{0}', kb(e.loaded)).replace('{1}', kb(chosen.size)), e.loaded, chosen.size);
    reader.onload = () => {
      documentField.value = reader.result;
      show(text.dataset.reading.replace('{0}', kb(chosen.size)).replace('{1}', kb(chosen.size)), chosen.size, chosen.size);
    };
    reader.readAsText(chosen);
  });
  form.addEventListener('submit', () => {
    const size = new Blob([documentField.value]).size;
    const started = Date.now();
    const tick = () => show(text.dataset.sent.replace('{0}', kb(size)).replace('{1}', Math.floor((Date.now() - started) / 1000)));
    tick();
    setInterval(tick, 500);
    document.getElementById('preview').disabled = true;
  });
})();
