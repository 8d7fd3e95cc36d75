// ==UserScript==
// @name         countlo companion for CountLightsOut
// @namespace    countlo
// @version      1
// @description  Names the game's buttons A1-F6, marks countlo's next click, and sends each click and the count the game answers to `countlo play --listen` on this computer.
// @match        *://*/problem/CountLightsOut*
// @match        *://cpphusky.xyz/game/countlightsout*
// @run-at       document-start
// @grant        GM_xmlhttpRequest
// @grant        GM.xmlHttpRequest
// @connect      127.0.0.1
// ==/UserScript==
//
// Written by countlo (`countlo userscript`); countlo's manual, docs/play.md, "The companion in the page".
//
// Another host: add a @match line above, add a "user match" for this script in your script
// manager's settings, or write the script with `countlo userscript --match 'https://host/*'`.
//
// What the script does on the game page:
//  - wraps the page's fetch and XMLHttpRequest (before the game calls `init`) and reads the
//    game server's answers: `init` gives the starting count, `toggle` with button i the count
//    after clicking i; the text "当前有 N 盏灯亮着" is read instead when no answer can be;
//  - sends each of them, numbered, to countlo on 127.0.0.1 once the page is paired (the code
//    countlo prints, typed in the overlay); a message that cannot be sent waits (across a
//    reload too) and is sent again, in order, so no click is lost;
//  - shows countlo's state in a small overlay, with a Pause button (clicks made while paused
//    wait in the page and are sent on Resume).
//
// The contract (tests and other scripts may rely on it):
//  - every game button carries data-countlo-cell="A1" ... "F6" (column letter, row number,
//    A1 top left; button i is row i / 6, column i % 6);
//  - the button countlo suggests next carries data-countlo-next (no other button does);
//  - the overlay is #countlo-overlay; its data-countlo-status is one of connecting, offline, unpaired,
//    paired, paused, refused; data-countlo-clicks is the number of clicks countlo has recorded
//    in this game (empty before its starting count); data-countlo-solved is there once countlo
//    says the game is solved; the pairing code goes in its input[name=code].

(function () {
  "use strict";

  const PORT = 47251; // countlo play --listen's port; `countlo userscript --port N` writes another
  const BASE = "http://127.0.0.1:" + PORT;

  // --- The page: everything that reads the game's page is here --------------------------
  const PAGE = {
    cells: "button.cell", // the game's buttons, in reading order
    columns: 6,
    api: /\/api\/problem\/[^/?#]+\/server(?:[?#]|$)/, // the game server's address
    shown: /当前有\s*(\d+)\s*盏灯亮着/, // the count as the page shows it
    settle: 1500, // ms after a click when the shown count is read, if no server answer was
  };

  function cellButtons() {
    return Array.prototype.slice.call(document.querySelectorAll(PAGE.cells));
  }

  function cellName(i) {
    return String.fromCharCode(65 + (i % PAGE.columns)) + (Math.floor(i / PAGE.columns) + 1);
  }

  function shownCount() {
    const found = document.querySelectorAll("p, div, span");
    for (let k = 0; k < found.length; k++) {
      if (found[k].children.length) continue;
      const m = PAGE.shown.exec(found[k].textContent || "");
      if (m) return parseInt(m[1], 10);
    }
    return null;
  }

  // Runs in the page's own world (injected as a script when this one runs in a sandbox): it
  // wraps fetch and XMLHttpRequest and reports each answer of the game server, in the order
  // the requests were sent, as a "countlo-answer" event.
  function pageHook(apiSource) {
    const api = new RegExp(apiSource);
    let sent = 0;
    let told = 0;
    const answers = new Map();
    function tell(n, answer) {
      answers.set(n, answer);
      while (answers.has(told)) {
        const a = answers.get(told);
        answers.delete(told);
        told++;
        if (a) window.dispatchEvent(new CustomEvent("countlo-answer", { detail: JSON.stringify(a) }));
      }
    }
    function request(body) {
      try {
        const b = JSON.parse(body);
        return b && typeof b.event === "string" ? b : null;
      } catch (e) {
        return null;
      }
    }
    function answer(body, json) {
      return json && typeof json === "object"
        ? { event: body.event, data: body.data, res: json.res, problem: !!json.problem }
        : { event: body.event, data: body.data, failed: true };
    }
    // One game-server request at a time, in the order the page made them: two quick clicks then
    // reach the server in click order (two connections may otherwise be served the other way
    // round), so each answer is the count after its own click.
    let busy = false;
    const waiting = [];
    function turn(go) {
      if (busy) {
        waiting.push(go);
      } else {
        busy = true;
        go();
      }
    }
    function done() {
      const go = waiting.shift();
      if (go) go(); else busy = false;
    }
    const realFetch = window.fetch;
    if (realFetch) {
      window.fetch = function (input, init) {
        const url = typeof input === "string" ? input : (input && input.url) || String(input);
        const body = init && typeof init.body === "string" ? request(init.body) : null;
        if (!(body && api.test(url))) return realFetch.apply(this, arguments);
        const self = this;
        const args = arguments;
        const n = sent++;
        const p = new Promise(function (resolve, reject) {
          turn(function () {
            try {
              realFetch.apply(self, args).then(resolve, reject);
            } catch (e) {
              reject(e); // the answer is reported as failed and the next request goes
            }
          });
        });
        p.then(function (r) { return r.clone().json(); })
          .then(function (j) { tell(n, answer(body, j)); }, function () { tell(n, answer(body, null)); })
          .then(done, done);
        return p;
      };
    }
    const open = XMLHttpRequest.prototype.open;
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.open = function (method, url) {
      this.countloUrl = String(url);
      return open.apply(this, arguments);
    };
    XMLHttpRequest.prototype.send = function (data) {
      const body = typeof data === "string" ? request(data) : null;
      if (!(body && api.test(this.countloUrl || ""))) return send.apply(this, arguments);
      const n = sent++;
      const xhr = this;
      const args = arguments;
      xhr.addEventListener("loadend", function () {
        let j = null;
        try { j = xhr.status < 300 ? JSON.parse(xhr.responseText) : null; } catch (e) { j = null; }
        tell(n, answer(body, j));
        done();
      });
      turn(function () {
        try {
          send.apply(xhr, args);
        } catch (e) {
          done(); // no loadend will come: let the next request go
        }
      });
    };
  }

  // --- Talking to countlo ---------------------------------------------------------------
  const realFetch = window.fetch ? window.fetch.bind(window) : null;
  const gm = typeof GM_xmlhttpRequest === "function" ? GM_xmlhttpRequest
    : (typeof GM !== "undefined" && GM && GM.xmlHttpRequest) ? GM.xmlHttpRequest : null;

  function request(method, path, body) {
    const url = BASE + path;
    const text = body === undefined ? undefined : JSON.stringify(Object.assign({ origin: location.origin }, body));
    return new Promise(function (resolve, reject) {
      function done(status, raw) {
        let j = {};
        try { j = JSON.parse(raw) || {}; } catch (e) { j = {}; }
        resolve({ status: status, body: j });
      }
      if (gm) {
        gm({ method: method, url: url, data: text, headers: { "Content-Type": "text/plain" }, timeout: 60000,
             onload: function (r) { done(r.status, r.responseText); }, onerror: reject, ontimeout: reject });
        return;
      }
      realFetch(url, { method: method, body: text, mode: "cors", credentials: "omit", cache: "no-store",
                       headers: text ? { "Content-Type": "text/plain" } : undefined })
        .then(function (r) { return r.text().then(function (t) { done(r.status, t); }); }, reject);
    });
  }

  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  const zh = /^zh/i.test(navigator.language || "");
  const OFFLINE = zh ? "countlo 没有在 127.0.0.1:" + PORT + " 上应答：请在终端运行 countlo play --listen。"
    : "countlo is not answering on 127.0.0.1:" + PORT + ": run countlo play --listen in a terminal.";

  const me = {
    page: Math.random().toString(36).slice(2) + Date.now().toString(36),
    seq: 0, outbox: [], token: null, paused: false, version: -1,
    shown: null, words: null, server: null, error: "", wait: 250, pumping: false, polling: false,
    status: "connecting",
  };
  // This tab's messages keep their numbers across a reload, and those not yet sent are sent
  // after it: a click made just before a reload is not lost.
  try {
    me.token = sessionStorage.getItem("countlo-token");
    const saved = JSON.parse(sessionStorage.getItem("countlo-page") || "null");
    if (saved && typeof saved.page === "string" && Number.isInteger(saved.seq) && Array.isArray(saved.outbox)) {
      me.page = saved.page;
      me.seq = saved.seq;
      me.outbox = saved.outbox;
    }
  } catch (e) {
    me.token = null;
  }

  function save() {
    try {
      sessionStorage.setItem("countlo-page", JSON.stringify({ page: me.page, seq: me.seq, outbox: me.outbox }));
    } catch (e) { /* without storage a reload starts the numbering again and pairs with the code */ }
  }

  function keepToken(token) {
    me.token = token;
    try {
      if (token) sessionStorage.setItem("countlo-token", token); else sessionStorage.removeItem("countlo-token");
    } catch (e) { /* a page without storage re-pairs with the code after a reload */ }
  }

  function word(key, fill) {
    let text = (me.words && me.words[key]) || "";
    Object.keys(fill || {}).forEach(function (k) { text = text.split("{" + k + "}").join(fill[k]); });
    return text;
  }

  function connected() { me.wait = 250; }

  async function offline() {
    if (me.status !== "refused") me.status = "offline";
    render();
    await sleep(me.wait);
    me.wait = Math.min(me.wait * 2, 4000);
  }

  function send(message) {
    message.seq = me.seq++;
    message.page = me.page;
    me.outbox.push(message);
    save();
    render();
    pump();
  }

  function observe(a, fromText) {
    const whole = function (n) { return typeof n === "number" && n >= 0 && Math.floor(n) === n; };
    if (!a) return;
    if (!fromText) answered = true; // the server's answers can be read: the text is not needed
    if (!fromText && a.event === "toggle" && (a.failed || !whole(a.res))) { // a click the game did not take
      const k = clicks.findIndex(function (c) { return c.cell === a.data; });
      if (k >= 0) clicks.splice(k, 1);
      return;
    }
    if (!whole(a.res)) return;
    if (!fromText && a.event === "toggle") { // the server answered this click: no text needed
      const k = clicks.findIndex(function (c) { return c.cell === a.data; });
      if (k >= 0) {
        clicks.splice(k, 1);
      } else {
        const g = guessed.indexOf(a.data);
        if (g >= 0) { guessed.splice(g, 1); return; } // its shown count was sent already
      }
    }
    if (fromText && a.event === "toggle") {
      guessed.push(a.data);
      if (guessed.length > 16) guessed.shift();
    }
    if (a.event === "init") {
      send({ kind: "init", count: a.res });
    } else if (a.event === "toggle" && whole(a.data)) {
      send({ kind: "click", cell: a.data, count: a.res, before: me.shown });
    } else {
      return;
    }
    me.shown = a.res;
  }

  async function pump() {
    if (me.pumping) return;
    me.pumping = true;
    try {
      while (me.outbox.length && me.token && !me.paused) {
        const m = me.outbox[0];
        let r;
        try {
          r = await request("POST", "/event", Object.assign({ token: me.token }, m));
        } catch (e) {
          await offline();
          continue;
        }
        connected();
        if (me.status === "offline") me.status = me.paused ? "paused" : "paired";
        if (r.status === 200 || r.status === 400) { // taken, or unreadable (it will never be taken)
          me.outbox.shift();
          save();
          me.error = r.status === 400 ? r.body.error || "" : "";
          if (r.body.state) show(r.body.state);
        } else if (r.status === 409 && typeof r.body.expect === "number") {
          while (me.outbox.length && me.outbox[0].seq < r.body.expect) me.outbox.shift();
          save();
          if (me.outbox.length && me.outbox[0].seq > r.body.expect) await pair(null);
        } else if (r.status === 403) {
          unpaired(r.body);
          break;
        } else {
          me.error = r.body.error || "";
          await sleep(500);
        }
        render();
      }
    } finally {
      me.pumping = false;
      render();
    }
  }

  async function poll() {
    if (me.polling) return;
    me.polling = true;
    try {
      while (me.token) {
        let r;
        try {
          r = await request("GET", "/state?token=" + encodeURIComponent(me.token) + "&since=" + me.version +
                            "&origin=" + encodeURIComponent(location.origin));
        } catch (e) {
          await offline();
          continue;
        }
        connected();
        if (r.status === 200 && r.body.state) {
          if (me.status === "offline") me.status = me.paused ? "paused" : "paired";
          show(r.body.state);
        } else if (r.status === 403) {
          unpaired(r.body);
          break;
        } else {
          await sleep(1000);
        }
      }
    } finally {
      me.polling = false;
    }
  }

  async function pair(code) {
    const body = { page: me.page, next: me.outbox.length ? me.outbox[0].seq : me.seq };
    const n = cellButtons().length;
    if (n) body.cells = n;
    if (code) body.code = code; else if (me.token) body.token = me.token;
    let r;
    try {
      r = await request("POST", "/pair", body);
    } catch (e) {
      await offline();
      return false;
    }
    connected();
    if (r.status !== 200) {
      unpaired(r.body);
      return false;
    }
    keepToken(r.body.token);
    me.words = r.body.words || me.words;
    me.status = me.paused ? "paused" : "paired";
    me.error = "";
    me.version = -1;
    if (r.body.state) show(r.body.state);
    render();
    pump();
    poll();
    return true;
  }

  function unpaired(body) {
    keepToken(null);
    me.status = body && body.refused ? "refused" : "unpaired";
    me.error = (body && body.error) || "";
    me.server = null;
    mark();
    render();
  }

  async function start() {
    for (;;) {
      let r;
      try {
        r = await request("GET", "/hello?origin=" + encodeURIComponent(location.origin));
      } catch (e) {
        await offline();
        continue;
      }
      connected();
      if (r.status === 200) {
        me.words = r.body.words;
        break;
      }
      unpaired(r.body);
      await sleep(5000);
    }
    const had = me.token;
    if (!(await pair(null)) && me.status === "unpaired" && !had) {
      me.error = ""; // not paired yet: the overlay asks for the code
      render();
    }
  }

  // --- What the page shows --------------------------------------------------------------
  function show(state) {
    // the answers to an event and to a poll may come back in either order: keep the newest
    if (typeof state.version !== "number" || state.version < me.version) return;
    me.version = state.version;
    me.server = state;
    mark();
    render();
  }

  function label() {
    cellButtons().forEach(function (b, i) {
      const name = cellName(i);
      if (b.getAttribute("data-countlo-cell") !== name) b.setAttribute("data-countlo-cell", name);
    });
    mark();
    render();
  }

  function mark() {
    const next = me.server && me.token ? me.server.index : null;
    cellButtons().forEach(function (b, i) {
      const want = next === i;
      if (want !== b.hasAttribute("data-countlo-next")) {
        if (want) b.setAttribute("data-countlo-next", ""); else b.removeAttribute("data-countlo-next");
      }
    });
  }

  const STYLE =
    "button.cell[data-countlo-cell]{position:relative}" +
    "button.cell[data-countlo-cell]::after{content:attr(data-countlo-cell);position:absolute;left:3px;top:2px;" +
    "font:11px/1 sans-serif;color:#888;pointer-events:none}" +
    "button.cell[data-countlo-next]{outline:4px solid #e8a200;outline-offset:-4px}" +
    "button.cell[data-countlo-next]::after{color:#e8a200;font-weight:bold}" +
    "#countlo-overlay{position:fixed;right:12px;bottom:12px;z-index:2147483647;max-width:320px;" +
    "background:#fffdf5;color:#222;border:1px solid #e8a200;border-radius:6px;padding:8px 10px;" +
    "font:13px/1.4 sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.2)}" +
    "#countlo-overlay b{color:#a06d00}#countlo-overlay .countlo-next{font-size:15px;font-weight:bold}" +
    "#countlo-overlay .countlo-message{color:#b00020}#countlo-overlay .countlo-status{color:#555}" +
    "#countlo-overlay input{width:6em;margin:0 4px}#countlo-overlay button{margin-top:4px}";

  let overlay = null;

  function element(tag, cls) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    return e;
  }

  function build() {
    if (overlay || !document.body) return;
    const style = element("style");
    style.textContent = STYLE;
    (document.head || document.body).appendChild(style);
    overlay = element("div");
    overlay.id = "countlo-overlay";
    const title = element("b");
    title.textContent = "countlo";
    overlay.appendChild(title);
    ["countlo-next", "countlo-advice", "countlo-status", "countlo-queue", "countlo-message"].forEach(function (c) {
      overlay.appendChild(element("div", c));
    });
    const form = element("form", "countlo-pair");
    const ask = element("div", "countlo-ask");
    const input = element("input");
    input.name = "code";
    input.autocomplete = "off";
    input.inputMode = "numeric";
    input.maxLength = 12;
    const go = element("button");
    go.type = "submit";
    form.appendChild(ask);
    form.appendChild(input);
    form.appendChild(go);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const code = input.value.trim();
      if (code) pair(code).then(function (ok) { if (ok) input.value = ""; });
    });
    overlay.appendChild(form);
    const pause = element("button", "countlo-pause");
    pause.type = "button";
    pause.addEventListener("click", function () {
      me.paused = !me.paused;
      if (me.status === "paired" || me.status === "paused") me.status = me.paused ? "paused" : "paired";
      render();
      pump();
    });
    overlay.appendChild(pause);
    document.body.appendChild(overlay);
  }

  function part(cls, text) {
    const e = overlay.querySelector("." + cls);
    if (e.textContent !== text) e.textContent = text;
    e.style.display = text ? "" : "none";
  }

  function render() {
    build();
    if (!overlay) return;
    overlay.setAttribute("data-countlo-status", me.status);
    const s = me.server;
    const live = me.status === "paired" || me.status === "paused";
    overlay.setAttribute("data-countlo-clicks", live && s && s.started ? String(s.clicks) : "");
    if (live && s && s.solved) overlay.setAttribute("data-countlo-solved", "");
    else overlay.removeAttribute("data-countlo-solved");
    let next = "";
    if (live && s) {
      if (s.solved) next = word("solved");
      else if (!s.started) next = word("start");
      else if (s.next && s.expect !== null && s.expect !== undefined) next = word("expect", { cell: s.next, count: s.expect });
      else if (s.next) next = word("next", { cell: s.next });
    }
    part("countlo-next", next);
    part("countlo-advice", live && s && s.started && !s.solved ? s.advice || "" : "");
    part("countlo-status", me.status === "offline" ? (me.words ? word("offline") : OFFLINE)
      : me.status === "paused" ? word("paused") : live && s ? s.status || "" : "");
    part("countlo-queue", me.outbox.length && me.words ? word("waiting", { n: me.outbox.length }) : "");
    part("countlo-message", me.error || (live && s && s.message) || "");
    const form = overlay.querySelector(".countlo-pair");
    form.style.display = me.status === "unpaired" && me.words ? "" : "none";
    form.querySelector(".countlo-ask").textContent = word("ask_code");
    form.querySelector("button").textContent = word("pair") || "Pair";
    const pause = overlay.querySelector(".countlo-pause");
    pause.style.display = live ? "" : "none";
    pause.textContent = me.paused ? word("resume") : word("pause");
  }

  // --- Reading the counts from the shown text, when no server answer can be read -----------
  // Every click on a game button waits here until the game server's answer for it is seen
  // (observe() takes it off). On a page whose answers cannot be read at all, a click gets the
  // count shown after it instead: the first change of the text after the click, or, PAGE.settle
  // ms on, the count as it stands (a click that leaves the count as it was changes no text);
  // there, click at an even pace, one count shown after the other.
  let answered = false; // a server answer was read on this page: its clicks wait for theirs
  const clicks = [];
  const guessed = []; // clicks whose count was read from the text, in case their answer comes late
  const texts = []; // the shown count each time it changed: {count, at}
  let lastText = null;

  function fallback() {
    const now = shownCount();
    const t = Date.now();
    if (now !== null && now !== lastText) {
      lastText = now;
      texts.push({ count: now, at: t });
      if (texts.length > 64) texts.shift();
    }
    if (me.shown === null && !clicks.length && texts.length && t - texts[texts.length - 1].at > PAGE.settle / 3) {
      texts.length = 0; // the starting count, shown with no server answer seen for it
      observe({ event: "init", res: lastText }, true);
      return;
    }
    while (clicks.length && !answered) {
      const c = clicks[0];
      while (texts.length && texts[0].at <= c.at) texts.shift();
      if (!texts.length && (t - c.at <= PAGE.settle || lastText === null)) break;
      clicks.shift();
      observe({ event: "toggle", data: c.cell, res: texts.length ? texts.shift().count : lastText }, true);
    }
  }

  // --- Start ----------------------------------------------------------------------------
  window.addEventListener("countlo-answer", function (e) {
    try { observe(JSON.parse(e.detail)); } catch (err) { /* not an answer countlo reads */ }
  });
  const sandboxed = typeof unsafeWindow !== "undefined" && unsafeWindow !== window;
  function inject() { // the page's own world runs the wrapper (a page forbidding inline scripts: the text is read)
    try {
      const script = document.createElement("script");
      script.textContent = "(" + pageHook.toString() + ")(" + JSON.stringify(PAGE.api.source) + ");";
      (document.head || document.documentElement).appendChild(script);
      script.remove();
    } catch (e) { /* the shown text is read instead */ }
  }
  if (!sandboxed) {
    pageHook(PAGE.api.source);
  } else if (document.documentElement) {
    inject();
  } else { // so early that the page has no element yet: the first one comes before any script
    new MutationObserver(function (records, watch) {
      if (!document.documentElement) return;
      watch.disconnect();
      inject();
    }).observe(document, { childList: true });
  }

  document.addEventListener("click", function (e) {
    const b = e.target && e.target.closest ? e.target.closest(PAGE.cells) : null;
    if (!b) return;
    const i = cellButtons().indexOf(b);
    if (i >= 0) clicks.push({ cell: i, at: Date.now() });
  }, true);

  let queued = false;
  new MutationObserver(function () {
    if (queued) return;
    queued = true;
    setTimeout(function () { queued = false; label(); fallback(); }, 0);
  }).observe(document, { childList: true, subtree: true, characterData: true });
  setInterval(fallback, 100);
  document.addEventListener("DOMContentLoaded", label);
  start();
})();
