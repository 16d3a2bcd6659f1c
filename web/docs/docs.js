// The API reference page: reads /openapi.json with the reader's key (from ?key= or the form),
// renders it with Swagger UI, and authorizes "Try it out" with the same key (X-API-Key).
// Served as a file of its own: the page's Content-Security-Policy runs no inline script.

/* global SwaggerUIBundle */
(function () {
  'use strict';

  /** The security scheme "Try it out" uses: components.securitySchemes.headerKey of the document. */
  var SCHEME = 'headerKey';
  var form = document.getElementById('key-form');
  var input = document.getElementById('key-input');
  var status = document.getElementById('key-status');

  function showForm(message) {
    status.textContent = message || '';
    form.hidden = false;
    document.body.dataset.docs = message ? 'refused' : 'key-needed';
    input.focus();
  }

  function refusal(response) {
    return response.text().then(function (text) {
      var detail = text;
      try { detail = JSON.parse(text).error || text; } catch (e) { /* a plain-text answer */ }
      return response.status + ' ' + detail;
    });
  }

  function render(doc, key) {
    form.hidden = true;
    document.body.dataset.docs = 'rendering';
    var ui = SwaggerUIBundle({
      spec: doc,
      dom_id: '#swagger-ui',
      layout: 'BaseLayout',
      presets: [SwaggerUIBundle.presets.apis],
      deepLinking: true,
      filter: true,
      displayOperationId: true,
      displayRequestDuration: true,
      showCommonExtensions: true,
      defaultModelsExpandDepth: 1,
      defaultModelExpandDepth: 2,
      // No badge from validator.swagger.io: the page talks to its own API only.
      validatorUrl: null,
      onComplete: function () {
        ui.preauthorizeApiKey(SCHEME, key);
        document.body.dataset.docs = 'ready';
      },
    });
    window.ui = ui;
  }

  function open(key) {
    status.textContent = '';
    document.body.dataset.docs = 'loading';
    fetch('openapi.json', { headers: { 'X-API-Key': key, accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) return refusal(response).then(showForm);
        return response.json().then(function (doc) { render(doc, key); });
      })
      .catch(function (err) { showForm('could not load /openapi.json: ' + err.message); });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var key = input.value.trim();
    if (key) open(key);
  });

  var given = new URLSearchParams(window.location.search).get('key');
  if (given) open(given);
  else showForm('');
})();
