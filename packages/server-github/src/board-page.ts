// The issue board view: one self-contained HTML page (inline style and script, nothing fetched) that
// speaks the MCP Apps view side of postMessage as far as it needs: `ui/initialize`, then it draws the
// `ui/notifications/tool-result` it is sent, and reports its size. Issue text is only ever set as text.

/** The board's colours where the host passes no style variables (the spec's standard names). */
const STYLE = `
:root {
  color-scheme: light dark;
  --board-bg: var(--color-background-secondary, #f6f8fa);
  --card-bg: var(--color-background-primary, #ffffff);
  --text: var(--color-text-primary, #1f2328);
  --muted: var(--color-text-secondary, #59636e);
  --line: var(--color-border-primary, #d1d9e0);
  --heading: #0969da;
  font-family: var(--font-sans, system-ui, sans-serif);
}
:root[data-theme='dark'] {
  --board-bg: var(--color-background-secondary, #151b23);
  --card-bg: var(--color-background-primary, #0d1117);
  --text: var(--color-text-primary, #f0f6fc);
  --muted: var(--color-text-secondary, #9198a1);
  --line: var(--color-border-primary, #3d444d);
}
* { box-sizing: border-box; }
body { margin: 0; padding: 12px; background: var(--board-bg); color: var(--text); font-size: 13px; }
header { display: flex; align-items: baseline; gap: 12px; margin-bottom: 10px; }
h1 { font-size: 16px; margin: 0; }
#status { color: var(--muted); margin: 0; }
.board { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(200px, 1fr); gap: 10px; align-items: start; }
.column { background: var(--card-bg); border: 1px solid var(--line); border-radius: 8px; min-width: 0; }
.column h2 { margin: 0; padding: 8px 10px; font-size: 13px; color: #ffffff; background: var(--heading); border-radius: 7px 7px 0 0; display: flex; justify-content: space-between; }
.column[data-column='closed'] h2 { background: #8250df; }
.cards { list-style: none; margin: 0; padding: 6px; display: grid; gap: 6px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; overflow-wrap: anywhere; }
.number { color: var(--muted); margin-right: 4px; }
.labels { list-style: none; margin: 4px 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px; }
.label { border-radius: 10px; padding: 1px 8px; font-size: 11px; font-weight: 600; }
.meta { color: var(--muted); font-size: 11px; margin-top: 4px; }
.more { color: var(--heading); background: none; border: 0; font: inherit; cursor: pointer; margin: 0; padding: 0 10px 8px; }
`;

const SCRIPT = `
(function () {
  'use strict';
  var nextId = 1;
  var pending = {};
  var lastSize = '';
  var isInitialized = false;
  // The call this view shows: its arguments (from tool-input) and the largest column, for "more".
  var lastArguments = {};
  var largestTotal = 0;
  var board = document.getElementById('board');
  var status = document.getElementById('status');
  var title = document.getElementById('title');

  function send(message) {
    message.jsonrpc = '2.0';
    window.parent.postMessage(message, '*');
  }
  function request(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject };
      send({ id: id, method: method, params: params });
    });
  }
  function notify(method, params) {
    send({ method: method, params: params });
  }
  function setState(state, text) {
    document.body.dataset.state = state;
    status.textContent = text;
  }
  // Only after the handshake: nothing but ui/initialize goes to the host before it is answered.
  function reportSize() {
    if (!isInitialized) return;
    var root = document.documentElement;
    var size = { width: Math.ceil(root.scrollWidth), height: Math.ceil(root.scrollHeight) };
    var key = size.width + 'x' + size.height;
    if (key === lastSize) return;
    lastSize = key;
    notify('ui/notifications/size-changed', size);
  }
  function applyContext(context) {
    if (!context || typeof context !== 'object') return;
    if (context.theme === 'dark' || context.theme === 'light') document.documentElement.dataset.theme = context.theme;
    var variables = context.styles && context.styles.variables;
    if (variables && typeof variables === 'object')
      Object.keys(variables).forEach(function (name) {
        if (name.indexOf('--') === 0 && typeof variables[name] === 'string')
          document.documentElement.style.setProperty(name, variables[name]);
      });
  }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function labelChip(label) {
    var chip = element('li', 'label', label.name);
    var colour = /^[0-9a-fA-F]{6}$/.test(label.color) ? label.color : 'ededed';
    var value = parseInt(colour, 16);
    var light = ((value >> 16) * 299 + ((value >> 8) & 255) * 587 + (value & 255) * 114) / 1000 > 150;
    chip.style.background = '#' + colour;
    chip.style.color = light ? '#1f2328' : '#ffffff';
    return chip;
  }
  function drawCard(card) {
    var item = element('li', 'card');
    item.dataset.number = String(card.number);
    item.append(element('span', 'number', '#' + card.number), element('span', 'title', card.title));
    if (card.labels.length) {
      var labels = element('ul', 'labels');
      card.labels.forEach(function (label) { labels.append(labelChip(label)); });
      item.append(labels);
    }
    var meta = card.assignees.map(function (login) { return '@' + login; });
    meta.push(card.comments === 1 ? '1 comment' : card.comments + ' comments');
    item.append(element('div', 'meta', meta.join(' \\u00b7 ')));
    return item;
  }
  function drawColumn(column) {
    var section = element('section', 'column');
    section.dataset.column = column.id;
    var heading = element('h2');
    heading.append(element('span', 'name', column.title), element('span', 'count', column.total));
    var cards = element('ol', 'cards');
    column.cards.forEach(function (card) { cards.append(drawCard(card)); });
    section.append(heading, cards);
    if (column.total > column.cards.length) {
      var more = element('button', 'more', '+' + (column.total - column.cards.length) + ' more');
      more.type = 'button';
      more.addEventListener('click', showAll);
      section.append(more);
    }
    return section;
  }
  // The interactive phase: the view calls the tool again through the host, with room for every card.
  function showAll() {
    setState('loading', 'Loading\u2026');
    var args = Object.assign({}, lastArguments, { perColumn: Math.min(100, largestTotal) });
    request('tools/call', { name: 'show_issue_board', arguments: args }).then(draw, function (error) {
      setState('error', 'The host refused tools/call: ' + (error && error.message));
      reportSize();
    });
  }
  function isBoard(value) {
    return value && typeof value.repository === 'string' && Array.isArray(value.columns) &&
      value.columns.every(function (column) { return column && Array.isArray(column.cards); });
  }
  function draw(result) {
    board.replaceChildren();
    if (result && result.isError) {
      var text = (result.content || []).map(function (block) { return block.text || ''; }).join(' ');
      setState('error', text || 'The tool failed.');
    } else if (!result || !isBoard(result.structuredContent)) {
      setState('error', 'The result holds no board.');
    } else {
      var data = result.structuredContent;
      title.textContent = data.repository;
      data.columns.forEach(function (column) { board.append(drawColumn(column)); });
      largestTotal = data.columns.reduce(function (most, column) { return Math.max(most, column.total); }, 0);
      var total = data.columns.reduce(function (sum, column) { return sum + column.total; }, 0);
      setState('ready', total + (total === 1 ? ' issue' : ' issues'));
    }
    reportSize();
  }
  var handlers = {
    'ui/notifications/tool-input': function (params) {
      var args = (params && params.arguments) || {};
      lastArguments = args;
      if (typeof args.owner === 'string' && typeof args.repo === 'string') title.textContent = args.owner + '/' + args.repo;
      setState('loading', 'Loading\\u2026');
    },
    'ui/notifications/tool-result': draw,
    'ui/notifications/tool-cancelled': function (params) {
      setState('cancelled', 'Cancelled' + (params && params.reason ? ': ' + params.reason : ''));
    },
    'ui/notifications/host-context-changed': applyContext,
  };
  window.addEventListener('message', function (event) {
    var message = event.data;
    if (event.source !== window.parent || !message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      var waiting = pending[message.id];
      if (!waiting) return;
      delete pending[message.id];
      if (message.error) waiting.reject(message.error);
      else waiting.resolve(message.result);
    } else if (message.id !== undefined) {
      if (message.method === 'ui/resource-teardown' || message.method === 'ping') send({ id: message.id, result: {} });
      else send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
    } else if (Object.prototype.hasOwnProperty.call(handlers, message.method)) {
      handlers[message.method](message.params);
    }
  });
  setState('waiting', 'Waiting for the host\\u2026');
  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'mcpwire-issue-board', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline'] },
  }).then(function (result) {
    applyContext(result && result.hostContext);
    isInitialized = true;
    notify('ui/notifications/initialized', {});
    if (typeof ResizeObserver === 'function') new ResizeObserver(reportSize).observe(document.documentElement);
  }, function (error) {
    setState('error', 'The host refused ui/initialize: ' + (error && error.message));
  });
})();
`;

/** The page, served as `ui://github/issue-board` with mime type `text/html;profile=mcp-app`. */
export const BOARD_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Issue board</title>
<style>${STYLE}</style>
</head>
<body data-state="starting">
<header><h1 id="title">Issue board</h1><p id="status" role="status"></p></header>
<main id="board" class="board"></main>
<script>${SCRIPT}</script>
</body>
</html>
`;
