// @ts-check
// The finance console: plain DOM, no framework, nothing from another origin. The token
// lives in sessionStorage only (this tab, gone when it closes) and goes out as the
// Authorization header; every value from the API is written as text, never as HTML.
// Type-checked (tsconfig.console.json) against the API's shapes as the OpenAPI document
// gives them (libs/sdk/src/openapi-types.ts, types only: nothing is loaded from there).
/** @typedef {import('../../../../../libs/sdk/src/openapi-types').components['schemas']} Schemas */
/** A query's parameters (an empty one is left out). @typedef {Record<string, string | number>} Params */
/** A form of a period (its from and to dates). @typedef {HTMLFormElement & { elements: HTMLFormControlsCollection & { from: HTMLInputElement, to: HTMLInputElement } }} PeriodForm */
(function () {
  'use strict';
  var TOKEN = 'finance.token';
  var CLIENT = 'finance.clientId';
  var CLIENT_NAME = 'finance.clientName';
  /**
   * The page's element of this id: index.html has every one the console asks for.
   * @param {string} id
   */
  var $ = function (id) { return /** @type {HTMLElement} */ (document.getElementById(id)); };
  /**
   * The page's input (or select) of this id: its value.
   * @param {string} id
   */
  var field = function (id) { return /** @type {HTMLInputElement | HTMLSelectElement} */ ($(id)); };
  /**
   * The page's button of this id.
   * @param {string} id
   */
  var button = function (id) { return /** @type {HTMLButtonElement} */ ($(id)); };
  /** Whether the token is the finance credential (it may list clients), known once the console is opened. */
  var financeMode = false;
  /** @type {{ page: number, total: number, entries: Schemas['AccountingEntryView'][] }} */
  var ledger = { page: 1, total: 0, entries: [] };
  /** The account's currency (from the last figures read): amounts show its decimals (JPY none, USD two, KWD three). */
  var currency = 'USD';

  /**
   * @param {string} text
   * @param {boolean} [isError]
   */
  function status(text, isError) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  }

  /**
   * The query string of `params` and the chosen client.
   * @param {Params} params
   */
  function query(params) {
    var client = sessionStorage.getItem(CLIENT);
    /** @type {Params} */
    var all = Object.assign({}, params, client ? { clientId: client } : {});
    var parts = Object.keys(all).filter(function (key) { return all[key] !== '' && all[key] !== undefined; }).map(function (key) {
      return encodeURIComponent(key) + '=' + encodeURIComponent(all[key]);
    });
    return parts.length ? '?' + parts.join('&') : '';
  }

  /**
   * One call of the accounting API as the token: the answer's JSON (its shape is the
   * caller's to say), or with `accept`, the download { blob, filename }. Rejects with the
   * API's message when it refuses.
   * @param {string} method
   * @param {string} path
   * @param {Params} [params]
   * @param {string} [accept]
   * @param {boolean} [unscoped] not for the chosen client (the finance credential's own lists)
   * @returns {Promise<unknown>}
   */
  function call(method, path, params, accept, unscoped) {
    var token = sessionStorage.getItem(TOKEN);
    if (!token) return Promise.reject(new Error('open the console with a token first'));
    if (financeMode && !unscoped && !sessionStorage.getItem(CLIENT)) return Promise.reject(new Error('Choose a client first: type a part of its name (or its id) and press Enter.'));
    return fetch('/api/accounting' + path + (unscoped ? plainQuery(params || {}) : query(params || {})), {
      method: method,
      headers: { authorization: token, accept: accept || 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
    }).then(function (response) {
      // A download: its bytes and the name the platform gives it (client and period).
      if (accept && response.ok) {
        var named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') || '');
        return response.blob().then(function (blob) { return { blob: blob, filename: named ? named[1] : null }; });
      }
      return response.json().then(function (body) {
        if (!response.ok) {
          var error = /** @type {Error & { status?: number }} */ (new Error(body && body.message ? body.message + ' (' + response.status + ')' : 'HTTP ' + response.status));
          error.status = response.status;
          throw error;
        }
        return body;
      });
    });
  }

  /** @param {Params} params */
  function plainQuery(params) {
    var parts = Object.keys(params).filter(function (key) { return params[key] !== '' && params[key] !== undefined; }).map(function (key) {
      return encodeURIComponent(key) + '=' + encodeURIComponent(params[key]);
    });
    return parts.length ? '?' + parts.join('&') : '';
  }

  /**
   * The decimals of a currency's minor unit (2 for one the browser does not know).
   * @param {string} code
   */
  function decimals(code) {
    try {
      return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    } catch {
      return 2;
    }
  }

  /**
   * @param {number} value
   * @param {string} [code] the account's currency unless given
   */
  function money(value, code) {
    var digits = decimals(code || currency);
    return Number(value).toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }

  /** The chosen client, named wherever the console shows its figures. */
  function showClient() {
    var id = sessionStorage.getItem(CLIENT);
    var name = sessionStorage.getItem(CLIENT_NAME);
    $('client-name').textContent = id ? (name ? name + ' · client ' + id : 'Client ' + id) : financeMode ? 'No client chosen' : '';
  }

  /** @param {Schemas['ClientName']} client */
  function chooseClient(client) {
    sessionStorage.setItem(CLIENT, String(client.clientId));
    sessionStorage.setItem(CLIENT_NAME, client.name);
    $('client-results').replaceChildren();
    field('client-search').value = client.name;
    showClient();
    status('Loading…');
    return loadBalance().then(function () { show('summary'); status('Ready'); }).catch(failed);
  }

  /** Clients by a part of their name or their id: one found is chosen at once, several are offered. */
  function findClients() {
    var text = field('client-search').value.trim();
    return call('GET', '/clients', { search: text, limit: 20 }, undefined, true).then(function (body) {
      var found = /** @type {Schemas['ClientNameListEnvelope']} */ (body).data;
      var list = $('client-results');
      list.replaceChildren();
      if (found.length === 1) return chooseClient(found[0]);
      if (!found.length) { status('No client matches "' + text + '"', true); return; }
      found.forEach(function (client) {
        var item = document.createElement('li');
        var choice = document.createElement('button');
        choice.type = 'button';
        choice.textContent = client.name + ' (client ' + client.clientId + ', ' + client.currency + (client.deletedAt ? ', deleted' : '') + ')';
        choice.addEventListener('click', function () { void chooseClient(client); });
        item.appendChild(choice);
        list.appendChild(item);
      });
      status(found.length + ' clients match: choose one');
      /** @type {HTMLButtonElement} */ (list.querySelector('button')).focus();
    });
  }

  /**
   * Appends a cell of `value` as text (nothing for null) to the row.
   * @param {HTMLTableRowElement} row
   * @param {unknown} value
   * @param {string} [className]
   */
  function cell(row, value, className) {
    var td = document.createElement('td');
    td.textContent = value === null || value === undefined ? '' : String(value);
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  /**
   * The table's rows: one per item, as `render` fills it.
   * @template T
   * @param {string} tableId
   * @param {T[]} items
   * @param {(row: HTMLTableRowElement, item: T) => void} render
   */
  function fill(tableId, items, render) {
    var body = /** @type {HTMLTableElement} */ ($(tableId)).tBodies[0];
    body.replaceChildren();
    items.forEach(function (item) {
      var row = document.createElement('tr');
      render(row, item);
      body.appendChild(row);
    });
  }

  /**
   * The list's terms and values.
   * @param {string} listId
   * @param {[string, string | number][]} pairs
   */
  function figures(listId, pairs) {
    var list = $(listId);
    list.replaceChildren();
    pairs.forEach(function (pair) {
      var box = document.createElement('div');
      var term = document.createElement('dt');
      var value = document.createElement('dd');
      term.textContent = pair[0];
      value.textContent = String(pair[1]);
      box.append(term, value);
      list.appendChild(box);
    });
  }

  /** @param {Error} error */
  function failed(error) { status(error.message, true); }

  /**
   * @param {Blob} blob
   * @param {string} filename
   */
  function save(blob, filename) {
    var url = URL.createObjectURL(blob);
    var link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  /** @param {string} formId */
  function period(formId) {
    var form = /** @type {PeriodForm} */ ($(formId));
    return { from: form.elements.from.value, to: form.elements.to.value };
  }

  // ---- sections ----

  function loadBalance() {
    return call('GET', '/balance').then(function (body) {
      var b = /** @type {Schemas['BalanceViewEnvelope']} */ (body).data;
      currency = b.currency;
      var name = sessionStorage.getItem(CLIENT_NAME);
      figures('balance', [['Client', name ? name + ' (' + b.clientId + ')' : b.clientId], ['Credit limit', money(b.creditLimit) + ' ' + b.currency], ['Credits', money(b.credits)], ['Debits', money(b.debits)], ['Holds', money(b.holds)], ['Available', money(b.available)]]);
    });
  }

  /** Every client at a glance (finance credential): available funds, requests waiting, this month's reconciliation. */
  function loadOverview() {
    var month = { from: monthStart, to: today };
    return Promise.all([
      call('GET', '/clients', { limit: 50 }, undefined, true),
      call('GET', '/requests', { status: 'pending', limit: 500 }, undefined, true),
    ]).then(function (answers) {
      var clients = /** @type {Schemas['ClientNameListEnvelope']} */ (answers[0]).data;
      /** @type {Record<number, number>} */
      var pending = {};
      /** @type {Schemas['CreditRequestViewPage']} */ (answers[1]).data.forEach(function (request) { pending[request.clientId] = (pending[request.clientId] || 0) + 1; });
      fill('overview-table', clients, function (row, client) {
        cell(row, client.name + (client.deletedAt ? ' (deleted)' : ''), 'name');
        cell(row, client.currency);
        var available = cell(row, '…', 'num');
        cell(row, pending[client.clientId] || 0, 'num');
        var reconciliation = cell(row, '…');
        var scoped = { clientId: client.clientId };
        call('GET', '/balance', scoped, undefined, true).then(function (body) { available.textContent = money(/** @type {Schemas['BalanceViewEnvelope']} */ (body).data.available, client.currency); }).catch(function () { available.textContent = 'n/a'; });
        call('GET', '/reconciliation', Object.assign({}, month, scoped), undefined, true)
          .then(function (body) {
            var r = /** @type {Schemas['ReconciliationViewEnvelope']} */ (body).data;
            reconciliation.textContent = r.mismatchCount === 0 ? 'no mismatches' : r.mismatchCount + ' mismatches';
            reconciliation.className = r.mismatchCount ? 'negative' : '';
          })
          .catch(function () { reconciliation.textContent = 'n/a'; });
        var open = cell(row, '');
        var opener = document.createElement('button');
        opener.type = 'button';
        opener.textContent = 'Open';
        opener.setAttribute('aria-label', 'Open ' + client.name);
        opener.addEventListener('click', function () { void chooseClient(client); });
        open.appendChild(opener);
      });
    });
  }

  /** The ledger's filters as the API takes them (it filters on the server, over every entry). */
  function ledgerFilters() {
    return {
      from: field('ledger-from').value,
      to: field('ledger-to').value,
      name: field('ledger-filter').value.trim(),
      bookingId: field('ledger-booking').value.trim(),
      minAmount: field('ledger-min').value.trim(),
      maxAmount: field('ledger-max').value.trim(),
    };
  }

  function renderLedger() {
    var shown = ledger.entries;
    fill('ledger-table', shown, function (row, entry) {
      cell(row, entry.id);
      cell(row, entry.createdAt.slice(0, 10));
      cell(row, entry.name, 'name');
      cell(row, money(entry.debit), 'num');
      cell(row, money(entry.credit), 'num');
      cell(row, entry.bookingId);
    });
    var limit = Number(field('ledger-limit').value);
    var pages = Math.max(1, Math.ceil(ledger.total / limit));
    $('ledger-page').textContent = 'Page ' + ledger.page + ' of ' + pages + ' · ' + ledger.total + ' entries' + (Object.values(ledgerFilters()).some(Boolean) ? ' match' : '');
    button('ledger-prev').disabled = ledger.page <= 1;
    button('ledger-next').disabled = ledger.page >= pages;
  }

  function loadLedger() {
    return call('GET', '', Object.assign({ page: ledger.page, limit: field('ledger-limit').value }, ledgerFilters())).then(function (body) {
      var page = /** @type {Schemas['AccountingEntryViewPage']} */ (body);
      ledger.entries = page.data;
      ledger.total = page.total;
      renderLedger();
    });
  }

  function loadStatement() {
    return call('GET', '/statement', period('statement-form')).then(function (body) {
      var s = /** @type {Schemas['StatementViewEnvelope']} */ (body).data;
      currency = s.currency;
      figures('statement-figures', [['Currency', s.currency], ['Opening', money(s.openingBalance)], ['Credits', money(s.totalCredits)], ['Debits', money(s.totalDebits)], ['Closing', money(s.closingBalance)], ['Credit limit', money(s.creditLimit)], ['Available at the end', money(s.availableAtEnd)]]);
      fill('statement-table', s.entries, function (row, entry) {
        cell(row, entry.createdAt.slice(0, 10));
        cell(row, entry.id);
        cell(row, entry.name, 'name');
        cell(row, money(entry.debit), 'num');
        cell(row, money(entry.credit), 'num');
      });
    });
  }

  /**
   * Downloads what the API gives as `accept`, under the name it gives (else `fallback`).
   * @param {string} path
   * @param {Params} params
   * @param {string} accept
   * @param {string} fallback
   */
  function download(path, params, accept, fallback) {
    return call('GET', path, params, accept).then(function (answer) {
      var file = /** @type {{ blob: Blob, filename: string | null }} */ (answer);
      var filename = file.filename || fallback;
      save(file.blob, filename);
      status('Downloaded ' + filename);
    });
  }

  function loadReconciliation() {
    return call('GET', '/reconciliation', period('reconciliation-form')).then(function (body) {
      var r = /** @type {Schemas['ReconciliationViewEnvelope']} */ (body).data;
      currency = r.currency;
      var totals = [{ currency: r.currency, totals: r.totals }].concat(r.otherCurrencies).reduce(function (rows, group) {
        return rows.concat(/** @type {(keyof Schemas['StatusTotals'])[]} */ (Object.keys(group.totals)).map(function (key) { return { status: key, total: group.totals[key] }; }));
      }, /** @type {{ status: string, total: Schemas['StatusTotal'] }[]} */ ([]));
      fill('reconciliation-totals', totals, function (row, item) {
        cell(row, item.status + ' (' + item.total.currency + ')');
        cell(row, item.total.count, 'num');
        cell(row, Number(item.total.amount).toLocaleString('en', { minimumFractionDigits: decimals(item.total.currency), maximumFractionDigits: decimals(item.total.currency) }), 'num');
      });
      $('reconciliation-result').textContent = r.mismatchCount === 0 ? 'No mismatches.' : r.mismatchCount + ' mismatch(es).';
      fill('reconciliation-table', r.mismatches, function (row, m) {
        cell(row, m.kind);
        cell(row, m.bookingId);
        cell(row, m.entryId);
        cell(row, m.expected === null ? '' : money(m.expected), 'num');
        cell(row, m.actual === null ? '' : money(m.actual), 'num');
        cell(row, m.message, 'name');
      });
    });
  }

  /**
   * Bars of available funds per day and a line of the closing balance, on axes with their
   * values (amounts left, days below, zero marked): SVG drawn here (no chart library to ship).
   */
  /** @param {Schemas['DailyBalance'][]} days */
  function chart(days) {
    var svg = /** @type {Element} */ ($('daily-chart'));
    var ns = 'http://www.w3.org/2000/svg';
    svg.replaceChildren();
    if (!days.length) return;
    var left = 70;
    var right = 630;
    var top = 10;
    var bottom = 230;
    /**
     * Appends an SVG element with these attributes (and text).
     * @param {string} name
     * @param {Record<string, string | number>} attributes
     * @param {string} [text]
     */
    var add = function (name, attributes, text) {
      var element = document.createElementNS(ns, name);
      Object.keys(attributes).forEach(function (key) { element.setAttribute(key, String(attributes[key])); });
      if (text !== undefined) element.textContent = text;
      svg.appendChild(element);
      return element;
    };
    var values = days.reduce(function (all, d) { return all.concat([d.available, d.closingBalance]); }, [0]);
    var max = Math.max.apply(null, values);
    var min = Math.min.apply(null, values);
    var span = max - min || 1;
    /** @param {number} v */
    var y = function (v) { return bottom - ((v - min) / span) * (bottom - top); };
    var width = (right - left) / days.length;
    // The amount axis: five values from the lowest to the highest, with their lines.
    for (var tick = 0; tick <= 4; tick++) {
      var value = min + (span * tick) / 4;
      add('line', { x1: left, x2: right, y1: y(value), y2: y(value), class: 'grid' });
      add('text', { x: left - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'tick' }, money(value));
    }
    add('line', { x1: left, x2: left, y1: top, y2: bottom, class: 'axis' });
    add('line', { x1: left, x2: right, y1: y(0), y2: y(0), class: 'axis zero' });
    // The day axis: every day when they fit, else about eight of them.
    var every = Math.max(1, Math.ceil(days.length / 8));
    days.forEach(function (d, i) {
      var rect = add('rect', {
        x: left + i * width + width * 0.1,
        width: width * 0.8,
        y: Math.min(y(d.available), y(0)),
        height: Math.max(1, Math.abs(y(d.available) - y(0))),
        class: d.available < 0 ? 'bar below' : 'bar',
      });
      var title = document.createElementNS(ns, 'title');
      title.textContent = d.day + ': available ' + money(d.available) + ', closing ' + money(d.closingBalance);
      rect.appendChild(title);
      if (i % every === 0 || i === days.length - 1) add('text', { x: left + i * width + width / 2, y: bottom + 16, 'text-anchor': 'middle', class: 'tick' }, d.day.slice(5));
    });
    add('polyline', { points: days.map(function (d, i) { return (left + i * width + width / 2) + ',' + y(d.closingBalance); }).join(' '), class: 'line' });
    add('text', { x: left, y: 256, class: 'tick' }, 'Amounts in ' + currency + '; days (MM-DD) of ' + days[0].day.slice(0, 4));
  }

  function loadDaily() {
    return call('GET', '/balance/daily', period('daily-form')).then(function (body) {
      var daily = /** @type {Schemas['DailyBalanceViewEnvelope']} */ (body).data;
      currency = daily.currency;
      chart(daily.days);
      fill('daily-table', daily.days, function (row, d) {
        cell(row, d.day);
        cell(row, money(d.credits), 'num');
        cell(row, money(d.debits), 'num');
        cell(row, money(d.closingBalance), d.closingBalance < 0 ? 'num negative' : 'num');
        cell(row, money(d.available), 'num');
      });
    });
  }

  /**
   * @param {number} id a credit request's
   * @param {string} decision confirm or reject
   */
  function decide(id, decision) {
    return call('POST', '/requests/' + id + '/' + decision).then(function () { status('Request ' + id + ' ' + decision + 'ed'); return loadRequests(); }).catch(failed);
  }

  function loadRequests() {
    return call('GET', '/requests', { status: field('requests-status').value, limit: 100 }).then(function (body) {
      fill('requests-table', /** @type {Schemas['CreditRequestViewPage']} */ (body).data, function (row, r) {
        cell(row, r.id);
        cell(row, r.clientId);
        cell(row, r.name, 'name');
        cell(row, money(r.credit), 'num');
        cell(row, r.status);
        var actions = cell(row, '');
        if (r.status !== 'pending') return;
        ['confirm', 'reject'].forEach(function (decision) {
          var decider = document.createElement('button');
          decider.type = 'button';
          decider.textContent = decision;
          decider.setAttribute('aria-label', decision + ' request ' + r.id);
          decider.addEventListener('click', function () { void decide(r.id, decision); });
          actions.appendChild(decider);
        });
      });
    });
  }

  /** @type {Record<string, () => Promise<unknown>>} */
  var LOADERS = { overview: loadOverview, summary: loadBalance, ledger: loadLedger, statement: loadStatement, reconciliation: loadReconciliation, daily: loadDaily, requests: loadRequests };

  /** @param {string} tab */
  function show(tab) {
    document.querySelectorAll('[role=tab]').forEach(function (tabButton) {
      var selected = tabButton.getAttribute('data-tab') === tab;
      tabButton.setAttribute('aria-selected', String(selected));
      $(/** @type {string} */ (tabButton.getAttribute('data-tab'))).hidden = !selected;
    });
  }

  // ---- wiring ----

  var today = new Date().toISOString().slice(0, 10);
  var monthStart = today.slice(0, 8) + '01';

  /** Opens the console with the token: the finance credential picks a client (its overview first); a client's token opens its own figures. */
  function open() {
    status('Loading…');
    // The finance credential says what it is (hb_fin_…): no request to find out.
    financeMode = (sessionStorage.getItem(TOKEN) || '').indexOf('hb_fin_') === 0;
    return Promise.resolve()
      .then(function () {
        $('client-picker').hidden = !financeMode;
        $('client-help').hidden = !financeMode;
        /** @type {HTMLElement} */ (document.querySelector('[data-tab=overview]')).hidden = !financeMode;
        if (!financeMode) { sessionStorage.removeItem(CLIENT); sessionStorage.removeItem(CLIENT_NAME); }
        showClient();
        if (financeMode && !sessionStorage.getItem(CLIENT)) {
          show('overview');
          status('Choose a client: type a part of its name (or its id) and press Enter, or open one below.');
          $('client-search').focus();
          return loadOverview();
        }
        return loadBalance().then(function () { status('Ready'); });
      })
      .catch(failed);
  }
  /** @type {NodeListOf<PeriodForm>} */ (document.querySelectorAll('form.period')).forEach(function (form) {
    form.elements.from.value = monthStart;
    form.elements.to.value = today;
  });
  field('token').value = sessionStorage.getItem(TOKEN) || '';

  $('signin').addEventListener('submit', function (event) {
    event.preventDefault();
    sessionStorage.setItem(TOKEN, field('token').value.trim());
    sessionStorage.removeItem(CLIENT);
    sessionStorage.removeItem(CLIENT_NAME);
    void open();
  });
  $('client-picker').addEventListener('submit', function (event) {
    event.preventDefault();
    findClients().catch(failed);
  });
  $('signout').addEventListener('click', function () {
    [TOKEN, CLIENT, CLIENT_NAME].forEach(function (key) { sessionStorage.removeItem(key); });
    field('token').value = '';
    field('client-search').value = '';
    financeMode = false;
    $('client-picker').hidden = true;
    showClient();
    status('Signed out');
  });
  document.querySelectorAll('[role=tab]').forEach(function (tabButton) {
    tabButton.addEventListener('click', function () {
      var tab = /** @type {string} */ (tabButton.getAttribute('data-tab'));
      show(tab);
      if (tab !== 'statement' && tab !== 'reconciliation' && tab !== 'daily') LOADERS[tab]().catch(failed);
    });
  });
  /** @type {[string, () => Promise<unknown>][]} */ ([['statement-form', loadStatement], ['reconciliation-form', loadReconciliation], ['daily-form', loadDaily], ['requests-form', loadRequests], ['ledger-form', function () { ledger.page = 1; return loadLedger(); }]]).forEach(function (pair) {
    $(pair[0]).addEventListener('submit', function (event) {
      event.preventDefault();
      pair[1]().then(function () { status('Ready'); }).catch(failed);
    });
  });
  $('ledger-limit').addEventListener('change', function () { ledger.page = 1; loadLedger().catch(failed); });
  $('ledger-prev').addEventListener('click', function () { ledger.page = Math.max(1, ledger.page - 1); loadLedger().catch(failed); });
  $('ledger-next').addEventListener('click', function () { ledger.page += 1; loadLedger().catch(failed); });
  $('ledger-csv').addEventListener('click', function () { download('', { format: 'csv' }, 'text/csv', 'ledger-' + sessionStorage.getItem(CLIENT) + '.csv').catch(failed); });
  $('statement-csv').addEventListener('click', function () {
    var p = period('statement-form');
    download('/statement', Object.assign({ format: 'csv' }, p), 'text/csv', 'statement-' + p.from + '-' + p.to + '.csv').catch(failed);
  });
  $('statement-pdf').addEventListener('click', function () {
    var p = period('statement-form');
    download('/statement', Object.assign({ format: 'pdf' }, p), 'application/pdf', 'statement-' + p.from + '-' + p.to + '.pdf').catch(failed);
  });
  if (sessionStorage.getItem(TOKEN)) void open();
})();
