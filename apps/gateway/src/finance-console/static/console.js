// The finance console: plain DOM, no framework, nothing from another origin. The token
// lives in sessionStorage only (this tab, gone when it closes) and goes out as the
// Authorization header; every value from the API is written as text, never as HTML.
(function () {
  'use strict';
  var TOKEN = 'finance.token';
  var CLIENT = 'finance.clientId';
  var $ = function (id) { return document.getElementById(id); };
  var ledger = { page: 1, total: 0, entries: [] };
  /** The account's currency (from the last figures read): amounts show its decimals (JPY none, USD two, KWD three). */
  var currency = 'USD';

  function status(text, isError) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  }

  function query(params) {
    var client = sessionStorage.getItem(CLIENT);
    var all = Object.assign({}, params, client ? { clientId: client } : {});
    var parts = Object.keys(all).filter(function (key) { return all[key] !== '' && all[key] !== undefined; }).map(function (key) {
      return encodeURIComponent(key) + '=' + encodeURIComponent(all[key]);
    });
    return parts.length ? '?' + parts.join('&') : '';
  }

  function call(method, path, params, accept) {
    var token = sessionStorage.getItem(TOKEN);
    if (!token) return Promise.reject(new Error('open the console with a token first'));
    return fetch('/api/accounting' + path + query(params || {}), {
      method: method,
      headers: { authorization: token, accept: accept || 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
    }).then(function (response) {
      if (accept && response.ok) return response.blob();
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body && body.message ? body.message + ' (' + response.status + ')' : 'HTTP ' + response.status);
        return body;
      });
    });
  }

  function decimals(code) {
    try {
      return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    } catch (error) {
      return 2;
    }
  }

  function money(value) {
    var digits = decimals(currency);
    return Number(value).toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }

  function cell(row, value, className) {
    var td = document.createElement('td');
    td.textContent = value === null || value === undefined ? '' : String(value);
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function fill(tableId, items, render) {
    var body = $(tableId).tBodies[0];
    body.replaceChildren();
    items.forEach(function (item) {
      var row = document.createElement('tr');
      render(row, item);
      body.appendChild(row);
    });
  }

  function figures(listId, pairs) {
    var list = $(listId);
    list.replaceChildren();
    pairs.forEach(function (pair) {
      var box = document.createElement('div');
      var term = document.createElement('dt');
      var value = document.createElement('dd');
      term.textContent = pair[0];
      value.textContent = pair[1];
      box.append(term, value);
      list.appendChild(box);
    });
  }

  function failed(error) { status(error.message, true); }

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

  function period(formId) {
    var form = $(formId);
    return { from: form.elements.from.value, to: form.elements.to.value };
  }

  // ---- sections ----

  function loadBalance() {
    return call('GET', '/balance').then(function (body) {
      var b = body.data;
      currency = b.currency;
      figures('balance', [['Client', b.clientId], ['Credit limit', money(b.creditLimit) + ' ' + b.currency], ['Credits', money(b.credits)], ['Debits', money(b.debits)], ['Holds', money(b.holds)], ['Available', money(b.available)]]);
    });
  }

  function renderLedger() {
    var filter = $('ledger-filter').value.toLowerCase();
    var kind = $('ledger-kind').value;
    var shown = ledger.entries.filter(function (entry) {
      if (filter && entry.name.toLowerCase().indexOf(filter) < 0) return false;
      if (kind === 'debit') return entry.debit > 0;
      if (kind === 'credit') return entry.credit > 0;
      return true;
    });
    fill('ledger-table', shown, function (row, entry) {
      cell(row, entry.id);
      cell(row, entry.createdAt.slice(0, 10));
      cell(row, entry.name, 'name');
      cell(row, money(entry.debit), 'num');
      cell(row, money(entry.credit), 'num');
      cell(row, entry.bookingId);
    });
    var limit = Number($('ledger-limit').value);
    var pages = Math.max(1, Math.ceil(ledger.total / limit));
    $('ledger-page').textContent = 'Page ' + ledger.page + ' of ' + pages + ' · ' + ledger.total + ' entries · ' + shown.length + ' shown';
    $('ledger-prev').disabled = ledger.page <= 1;
    $('ledger-next').disabled = ledger.page >= pages;
  }

  function loadLedger() {
    return call('GET', '', { page: ledger.page, limit: $('ledger-limit').value }).then(function (body) {
      ledger.entries = body.data;
      ledger.total = body.total;
      renderLedger();
    });
  }

  function loadStatement() {
    return call('GET', '/statement', period('statement-form')).then(function (body) {
      var s = body.data;
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

  function download(path, params, accept, filename) {
    return call('GET', path, params, accept).then(function (blob) { save(blob, filename); status('Downloaded ' + filename); });
  }

  function loadReconciliation() {
    return call('GET', '/reconciliation', period('reconciliation-form')).then(function (body) {
      var r = body.data;
      currency = r.currency;
      var totals = [{ currency: r.currency, totals: r.totals }].concat(r.otherCurrencies).reduce(function (rows, group) {
        return rows.concat(Object.keys(group.totals).map(function (key) { return { status: key, total: group.totals[key] }; }));
      }, []);
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

  /** Bars of available funds per day, a line of the closing balance, zero as an axis: SVG drawn here (no chart library to ship). */
  function chart(days) {
    var svg = $('daily-chart');
    var ns = 'http://www.w3.org/2000/svg';
    svg.replaceChildren();
    if (!days.length) return;
    var values = days.reduce(function (all, d) { return all.concat([d.available, d.closingBalance]); }, [0]);
    var max = Math.max.apply(null, values);
    var min = Math.min.apply(null, values);
    var span = max - min || 1;
    var y = function (v) { return 230 - ((v - min) / span) * 220; };
    var width = 600 / days.length;
    days.forEach(function (d, i) {
      var rect = document.createElementNS(ns, 'rect');
      var top = Math.min(y(d.available), y(0));
      rect.setAttribute('x', String(i * width + width * 0.1));
      rect.setAttribute('width', String(width * 0.8));
      rect.setAttribute('y', String(top));
      rect.setAttribute('height', String(Math.max(1, Math.abs(y(d.available) - y(0)))));
      rect.setAttribute('class', d.available < 0 ? 'bar below' : 'bar');
      var title = document.createElementNS(ns, 'title');
      title.textContent = d.day + ': available ' + money(d.available) + ', closing ' + money(d.closingBalance);
      rect.appendChild(title);
      svg.appendChild(rect);
    });
    var axis = document.createElementNS(ns, 'line');
    axis.setAttribute('x1', '0');
    axis.setAttribute('x2', '600');
    axis.setAttribute('y1', String(y(0)));
    axis.setAttribute('y2', String(y(0)));
    axis.setAttribute('class', 'axis');
    svg.appendChild(axis);
    var line = document.createElementNS(ns, 'polyline');
    line.setAttribute('points', days.map(function (d, i) { return (i * width + width / 2) + ',' + y(d.closingBalance); }).join(' '));
    line.setAttribute('class', 'line');
    svg.appendChild(line);
  }

  function loadDaily() {
    return call('GET', '/balance/daily', period('daily-form')).then(function (body) {
      currency = body.data.currency;
      chart(body.data.days);
      fill('daily-table', body.data.days, function (row, d) {
        cell(row, d.day);
        cell(row, money(d.credits), 'num');
        cell(row, money(d.debits), 'num');
        cell(row, money(d.closingBalance), d.closingBalance < 0 ? 'num negative' : 'num');
        cell(row, money(d.available), 'num');
      });
    });
  }

  function decide(id, decision) {
    return call('POST', '/requests/' + id + '/' + decision).then(function () { status('Request ' + id + ' ' + decision + 'ed'); return loadRequests(); }).catch(failed);
  }

  function loadRequests() {
    return call('GET', '/requests', { status: $('requests-status').value, limit: 100 }).then(function (body) {
      fill('requests-table', body.data, function (row, r) {
        cell(row, r.id);
        cell(row, r.clientId);
        cell(row, r.name, 'name');
        cell(row, money(r.credit), 'num');
        cell(row, r.status);
        var actions = cell(row, '');
        if (r.status !== 'pending') return;
        ['confirm', 'reject'].forEach(function (decision) {
          var button = document.createElement('button');
          button.type = 'button';
          button.textContent = decision;
          button.setAttribute('aria-label', decision + ' request ' + r.id);
          button.addEventListener('click', function () { decide(r.id, decision); });
          actions.appendChild(button);
        });
      });
    });
  }

  var LOADERS = { summary: loadBalance, ledger: loadLedger, statement: loadStatement, reconciliation: loadReconciliation, daily: loadDaily, requests: loadRequests };

  function show(tab) {
    document.querySelectorAll('[role=tab]').forEach(function (button) {
      var selected = button.getAttribute('data-tab') === tab;
      button.setAttribute('aria-selected', String(selected));
      $(button.getAttribute('data-tab')).hidden = !selected;
    });
  }

  // ---- wiring ----

  var today = new Date().toISOString().slice(0, 10);
  var monthStart = today.slice(0, 8) + '01';
  document.querySelectorAll('form.period').forEach(function (form) {
    form.elements.from.value = monthStart;
    form.elements.to.value = today;
  });
  $('token').value = sessionStorage.getItem(TOKEN) || '';
  $('client').value = sessionStorage.getItem(CLIENT) || '';

  $('signin').addEventListener('submit', function (event) {
    event.preventDefault();
    sessionStorage.setItem(TOKEN, $('token').value.trim());
    var client = $('client').value.trim();
    if (client) sessionStorage.setItem(CLIENT, client);
    else sessionStorage.removeItem(CLIENT);
    status('Loading…');
    loadBalance().then(function () { status('Ready'); }).catch(failed);
  });
  $('signout').addEventListener('click', function () {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(CLIENT);
    $('token').value = '';
    $('client').value = '';
    status('Signed out');
  });
  document.querySelectorAll('[role=tab]').forEach(function (button) {
    button.addEventListener('click', function () {
      var tab = button.getAttribute('data-tab');
      show(tab);
      if (tab !== 'statement' && tab !== 'reconciliation' && tab !== 'daily') LOADERS[tab]().catch(failed);
    });
  });
  [['statement-form', loadStatement], ['reconciliation-form', loadReconciliation], ['daily-form', loadDaily], ['requests-form', loadRequests], ['ledger-form', loadLedger]].forEach(function (pair) {
    $(pair[0]).addEventListener('submit', function (event) {
      event.preventDefault();
      pair[1]().then(function () { status('Ready'); }).catch(failed);
    });
  });
  $('ledger-filter').addEventListener('input', renderLedger);
  $('ledger-kind').addEventListener('change', renderLedger);
  $('ledger-limit').addEventListener('change', function () { ledger.page = 1; loadLedger().catch(failed); });
  $('ledger-prev').addEventListener('click', function () { ledger.page = Math.max(1, ledger.page - 1); loadLedger().catch(failed); });
  $('ledger-next').addEventListener('click', function () { ledger.page += 1; loadLedger().catch(failed); });
  $('ledger-csv').addEventListener('click', function () { download('', { format: 'csv' }, 'text/csv', 'ledger.csv').catch(failed); });
  $('statement-csv').addEventListener('click', function () {
    var p = period('statement-form');
    download('/statement', Object.assign({ format: 'csv' }, p), 'text/csv', 'statement-' + p.from + '-' + p.to + '.csv').catch(failed);
  });
  $('statement-pdf').addEventListener('click', function () {
    var p = period('statement-form');
    download('/statement', Object.assign({ format: 'pdf' }, p), 'application/pdf', 'statement-' + p.from + '-' + p.to + '.pdf').catch(failed);
  });
  if (sessionStorage.getItem(TOKEN)) loadBalance().then(function () { status('Ready'); }).catch(failed);
})();
