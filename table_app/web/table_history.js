// The table page's history (issue 29): the sessions (paged), a session's hands, any hand replayed
// step by step, and the players' records with the leaderboard. A replayed step is drawn by the
// live table's own render() — its view is the table page's view of the engine's public state at
// that record (/history/<session>/<hand>.json?step=i), the same dict the live table draws — while
// the live stream keeps the table's latest view for the way back. Every word comes with the
// answers (the archive's lines: present/history_view.py; the page's: present/vocab_history_page.py).
// Put in whole into table.html's second <script>: it reads the page's globals ($, el, lang, live,
// render, REPLAY).
{
  const css = `
    #history, #records { inset: 3.4rem 7% 3% 7%; }
    body.replaying #legend { display: none; }  /* (room for the wall above the replay's bar) */
    .card .hbody { margin-top: .4rem; }
    .card .msg { font-size: 1.2rem; color: var(--dim); }
    .sess { display: block; width: 100%; text-align: left; font: inherit; background: #24372d; color: var(--ink);
            border: 0; border-radius: .6rem; padding: .5rem .8rem; margin: .45rem 0; cursor: pointer; }
    .sess:hover, .sess:focus { background: #2d4639; }
    .stitle { font-size: 1.3rem; color: var(--status); } .sline { font-size: 1.15rem; margin: .15rem 0; }
    .srank, .ssettle { font-size: 1rem; color: var(--dim); overflow-wrap: anywhere; }
    .shead { margin: .3rem 0 .6rem; }
    .card h3 { font-size: 1.1rem; color: var(--dim); font-weight: 400; margin: .6rem 0 .2rem; }
    .hand { display: flex; align-items: center; gap: .8rem; padding: .35rem .2rem; border-bottom: 1px solid #2c3f35; }
    .hand.drawn .hline { font-style: italic; color: var(--dim); }
    .hinfo { flex: 1; min-width: 0; } .hline { font-size: 1.2rem; }
    .htransfers { font-size: .95rem; color: var(--dim); overflow-wrap: anywhere; }
    .card button.act, #replay button { font: inherit; font-size: 1.05rem; padding: .35rem .85rem; border-radius: .5rem;
                                        border: 0; background: #3a4d44; color: var(--ink); cursor: pointer; }
    .card button.act:disabled, #replay button:disabled { opacity: .35; cursor: default; }
    .card button.play { background: #2f6b4a; }
    .tabs { display: flex; gap: .5rem; flex-wrap: wrap; margin: .2rem 0 .6rem; }
    .tabs button.on { background: var(--status); color: #222; }
    .pager { display: flex; gap: .8rem; align-items: center; justify-content: center; margin-top: .6rem; color: var(--dim); }
    .pager:empty { display: none; }
    #records table { font-size: 1.2rem; }
    #records td.who { cursor: pointer; text-decoration: underline dotted; }
    #records .lines { margin-top: .6rem; }
    body.replaying main { height: calc(100vh - 3rem - 6rem); }
    #replay { display: none; position: fixed; left: 0; right: 0; bottom: 0; height: 6rem; background: #1b2a23;
              padding: .35rem .8rem; box-shadow: 0 0 1rem #000; flex-direction: column; gap: .3rem; }
    body.replaying #replay { display: flex; }
    #replay .top { display: flex; gap: .8rem; align-items: baseline; min-height: 2rem; }
    #replay .rtitle { color: var(--status); font-size: 1.05rem; white-space: nowrap; }
    #replay .caption { font-size: 1.4rem; flex: 1; overflow-wrap: anywhere; }
    #replay .caption.undone { color: #ffb2a6; border-left: .35rem solid #d2402c; padding-left: .5rem; }
    #replay .keys { font-size: .85rem; color: var(--dim); white-space: nowrap; }
    #replay .controls { display: flex; gap: .5rem; align-items: center; }
    #replay .track { flex: 1; position: relative; padding-top: .4rem; }
    #slider { width: 100%; margin: 0; }
    #replay .marks { position: absolute; left: .5rem; right: .5rem; top: 0; height: .45rem; pointer-events: none; }
    #replay .marks i { position: absolute; width: 3px; height: .45rem; background: #ff6a50; }
    #replay .count { font-variant-numeric: tabular-nums; color: var(--dim); min-width: 6.5rem; text-align: center; }
    @media (max-width: 700px) {
      header { height: auto; flex-wrap: wrap; }
      #history, #records { inset: 6.4rem 2% 2% 2%; }  /* (below the header's two rows) */
      body.replaying main { height: auto; padding-bottom: 11rem; }
      #replay { height: auto; } #replay .controls { flex-wrap: wrap; } #replay .track { flex-basis: 100%; order: -1; }
      #replay .keys { display: none; }
    }`;
  document.head.append(el("style", "", css));

  let words = {};  // the history's words in the page's language (they come with every answer)
  const w = (key, fields = {}) => (words[key] || key).replace(/\{(\w+)\}/g, (_, k) => String(fields[k]));
  const button = (cls, text, act) => {
    const b = el("button", "act " + cls, text);
    b.type = "button";
    b.addEventListener("click", act);
    return b;
  };
  async function get(path) {  // an answer of the history's routes in the page's language (null: no answer)
    const r = await fetch(path + (path.includes("?") ? "&" : "?") + "lang=" + lang, {cache: "no-store"})
      .catch(() => null);
    if (r === null) return null;
    const a = await r.json().catch(() => null);
    if (a && a.words) words = a.words;
    return a;
  }
  const refusal = (a) => (a && (lang === "en" ? a.en : a.zh)) || "…";

  // -- the history: the sessions, then a session's hands -------------------------------------------
  const hist = el("section", "card"), htitle = el("h2"), hbody = el("div", "hbody"), hpager = el("div", "pager");
  hist.id = "history";
  const hclose = el("button", "close");
  hclose.type = "button";
  hist.append(hclose, htitle, hbody, hpager);
  document.body.append(hist);
  const at = {page: 0, session: null, hpage: 0, period: "", player: null};

  async function showSessions(page) {
    at.session = null;
    at.page = page;
    const a = await get("/history/sessions.json?page=" + page);
    hclose.textContent = w("close");
    if (!a || !a.ok) { hbody.replaceChildren(el("p", "msg", refusal(a))); return; }
    htitle.textContent = w("ar_history");
    hbody.replaceChildren(...(a.sessions.length ? a.sessions.map(sessionButton) : [el("p", "msg", w("hp_none"))]));
    pager(hpager, a.page, a.pages, showSessions);
    hist.dataset.shown = "sessions";
    hist.dataset.page = a.page;
  }
  function sessionButton(s) {
    const b = el("button", "sess");
    b.type = "button";
    b.dataset.session = s.number;
    b.append(el("div", "stitle", s.title), el("div", "sline", s.line), el("div", "ssettle", s.settle.join(" · ")));
    b.addEventListener("click", () => showSession(s.number, 0));
    return b;
  }
  async function showSession(number, page) {
    at.session = number;
    at.hpage = page;
    const a = await get(`/history/${number}.json?page=${page}`);
    if (!a || !a.ok) { hbody.replaceChildren(el("p", "msg", refusal(a))); return; }
    const s = a.session;
    htitle.textContent = s.title;
    hclose.textContent = w("close");
    const head = el("div", "shead");
    head.append(el("div", "sline", s.line));
    if (s.settle.length) head.append(el("div", "ssettle", w("hp_settle_up") + ": " + s.settle.join(" · ")));
    const hands = a.hands.map((h) => {
      const row = el("div", "hand" + (h.drawn ? " drawn" : ""));
      row.dataset.hand = h.hand;
      const info = el("div", "hinfo");
      info.append(el("div", "hline", h.line), el("div", "htransfers", h.transfers.join(" · ")));
      const play = button("play", w("ar_replay"), () => startReplay(number, h.hand));
      play.dataset.hand = h.hand;
      row.append(info, play);
      return row;
    });
    hbody.replaceChildren(button("back", w("hp_back"), () => showSessions(at.page)), head, el("h3", "", w("hp_hands")),
                          ...hands);
    pager(hpager, a.page, a.pages, (p) => showSession(number, p));
    hist.dataset.shown = "session";
  }
  function pager(box, page, pages, go) {
    if (pages <= 1) { box.replaceChildren(); return; }
    const prev = button("prev", w("hp_prev_page"), () => go(page - 1));
    const next = button("next", w("hp_next_page"), () => go(page + 1));
    prev.disabled = page <= 0;
    next.disabled = page >= pages - 1;
    box.replaceChildren(prev, el("span", "", w("hp_page", {page: page + 1, pages})), next);
  }

  // -- a hand step by step: buttons, the arrow keys (Home, End) and a slider --------------------------
  const bar = el("section"), rtitle = el("span", "rtitle"), caption = el("div", "caption");
  bar.id = "replay";
  const ctext = el("span", "text"), keys = el("span", "keys");  // (an undone step's caption says so: 已撤销)
  caption.append(ctext);
  const top = el("div", "top");
  top.append(rtitle, caption, keys);
  const slider = el("input"), track = el("div", "track"), marks = el("div", "marks"), count = el("span", "count");
  slider.type = "range";
  slider.id = "slider";
  slider.min = "0";
  track.append(marks, slider);
  const R = {session: 0, hand: 0, want: 0, step: 0, steps: 0};
  const go = (to) => () => step(to());
  const first = button("first", "", go(() => 0)), prev = button("prev", "", go(() => R.want - 1));
  const next = button("next", "", go(() => R.want + 1)), last = button("last", "", go(() => R.steps - 1));
  const back = button("live", "", stopReplay);
  for (const [b, where] of [[first, "first"], [prev, "prev"], [next, "next"], [last, "last"], [back, "live"]]) b.dataset.go = where;
  const controls = el("div", "controls");
  controls.append(first, prev, track, next, last, count, back);
  bar.append(top, controls);
  document.body.append(bar);
  slider.addEventListener("input", () => step(Number(slider.value)));

  async function startReplay(number, hand) {
    hist.classList.remove("open");
    recs.classList.remove("open");
    REPLAY.on = true;
    document.body.classList.add("replaying");
    Object.assign(R, {session: number, hand, want: 0, step: 0, steps: 0});
    await step(0);
  }
  async function step(i) {
    if (R.steps) i = Math.max(0, Math.min(R.steps - 1, i));
    R.want = i;
    const a = await get(`/history/${R.session}/${R.hand}.json?step=${i}`);
    if (!REPLAY.on || R.want !== i) return;  // (the page moved on meanwhile: a later step is asked)
    if (!a || !a.ok) { ctext.textContent = refusal(a); return; }
    Object.assign(R, {step: a.step, steps: a.steps});
    render(a.view);  // the live table's own drawing: the seats, the wall, the settlement at the end
    rtitle.textContent = a.title;
    ctext.textContent = a.caption;
    caption.classList.toggle("undone", a.undone);
    keys.textContent = w("hp_keys");
    count.textContent = w("ar_step", {n: a.step + 1, of: a.steps});
    slider.max = String(a.steps - 1);
    slider.value = String(a.step);
    marks.replaceChildren(...a.undone_steps.map((k) => {
      const m = el("i");
      m.style.left = `calc(${a.steps > 1 ? k / (a.steps - 1) * 100 : 0}% - 1px)`;
      return m;
    }));
    for (const [b, key] of [[first, "hp_first"], [prev, "hp_prev"], [next, "hp_next"], [last, "hp_last"], [back, "hp_live"]]) {
      b.textContent = w(key);
    }
    first.disabled = prev.disabled = a.step === 0;
    next.disabled = last.disabled = a.step === a.steps - 1;
    Object.assign(document.body.dataset, {replayStep: a.step, replaySteps: a.steps, replaySeq: a.seq,
                                          replayUndone: a.undone});
  }
  function stopReplay() {
    REPLAY.on = false;
    document.body.classList.remove("replaying");
    for (const k of ["replayStep", "replaySteps", "replaySeq", "replayUndone"]) delete document.body.dataset[k];
    if (live) render(live);
  }
  document.addEventListener("keydown", (e) => {
    if (!REPLAY.on || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape") { stopReplay(); return; }
    const to = {ArrowLeft: R.want - 1, ArrowRight: R.want + 1, Home: 0, End: R.steps - 1}[e.key];
    if (to === undefined) return;
    e.preventDefault();  // (the slider, focused, would move too)
    step(to);
  });

  // -- records: the leaderboard (all time, this day, week, month) and each player's by period ---------
  const recs = el("section", "card"), rhead = el("h2"), tabs = el("div", "tabs"), rbody = el("div", "hbody");
  recs.id = "records";
  const rclose = el("button", "close");
  rclose.type = "button";
  recs.append(rclose, rhead, tabs, rbody);
  document.body.append(recs);
  const PERIODS = [["", "ar_all_time"], ["day", "ar_period_day"], ["week", "ar_period_week"], ["month", "ar_period_month"]];
  const COLUMNS = ["sessions", "hands", "wins", "self_draws", "kongs", "net"];
  const HEADS = ["hp_col_sessions", "hp_col_hands", "hp_col_wins", "hp_col_self", "hp_col_kongs", "hp_col_net"];
  const cells = (r) => COLUMNS.map((k) => el("td", k === "net" ? "total" : "", k === "net" ? signed(r.net) : String(r[k])));
  function grid(first, rows, cell) {
    const t = el("table");
    const head = el("tr");
    for (const h of [first, ...HEADS.map((k) => w(k))]) head.append(el("th", "", h));
    t.append(head);
    for (const r of rows) { const tr = el("tr"); tr.append(cell(r), ...cells(r)); tr.dataset.player = r.player_id; t.append(tr); }
    return t;
  }
  function periodTabs(show) {
    tabs.replaceChildren(...PERIODS.map(([p, key]) => {
      const b = button(p === at.period ? "on" : "", w(key), () => { at.period = p; show(); });
      b.dataset.period = p;
      return b;
    }));
  }
  async function showBoard() {
    at.player = null;
    const a = await get("/history/records.json" + (at.period ? "?period=" + at.period : ""));
    if (!a || !a.ok) { rbody.replaceChildren(el("p", "msg", refusal(a))); return; }
    rhead.textContent = w("ar_leaderboard");
    rclose.textContent = w("close");
    periodTabs(showBoard);
    rbody.replaceChildren(a.rows.length ? grid(w("hp_col_player"), a.rows, (r) => {
      const td = el("td", "who", r.name);
      td.addEventListener("click", () => showPlayer(r.player_id));
      return td;
    }) : el("p", "msg", w("ar_no_record")));
    recs.dataset.shown = "board";
  }
  async function showPlayer(pid) {
    at.player = pid;
    const a = await get(`/history/player/${pid}.json` + (at.period ? "?period=" + at.period : ""));
    if (!a || !a.ok) { rbody.replaceChildren(el("p", "msg", refusal(a))); return; }
    rhead.textContent = w("ar_records") + " · " + a.name;
    rclose.textContent = w("close");
    periodTabs(() => showPlayer(pid));
    const box = el("div", "lines");
    box.append(...a.lines.map((t) => el("div", "", t)));
    rbody.replaceChildren(button("back", w("hp_back"), showBoard),
                          grid(w("hp_col_period"), a.rows, (r) => el("td", "", r.period || w("ar_all_time"))), box);
    recs.dataset.shown = "player";
  }

  // -- the header's buttons, the cards' close, and the language ----------------------------------------
  $("showhistory").addEventListener("click", () => {
    recs.classList.remove("open");
    if (hist.classList.toggle("open")) showSessions(0);
  });
  $("showrecords").addEventListener("click", () => {
    hist.classList.remove("open");
    if (recs.classList.toggle("open")) showBoard();
  });
  hclose.addEventListener("click", () => hist.classList.remove("open"));
  rclose.addEventListener("click", () => recs.classList.remove("open"));
  $("lang").addEventListener("click", () => {  // (after the page's own listener: lang is the new one)
    if (hist.classList.contains("open")) { if (at.session === null) showSessions(at.page); else showSession(at.session, at.hpage); }
    if (recs.classList.contains("open")) { if (at.player === null) showBoard(); else showPlayer(at.player); }
    if (REPLAY.on) step(R.want);
  });
}
