// The phone page's part for keeping score from phones: a new session's form, bets, result-only entry (issue 27).
// Put in whole into phone.html's second <script>: it reads the page's globals (VIEW_HOOKS, ask, W, both, $).
// Its view is v.keeping (table_app/web/phone_score.py): the form while a phone may start a session
// (开始 takes two taps: the session it replaces leaves every screen), this seat's bet while bets
// are open (the table takes them when all four are in). (The last session is the page's own
// settle-up, drawn from v.keeping.last.)
{
  const el = (tag, props = {}, ...kids) => {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...kids);
    return e;
  };
  const css = `
    #sc button { font-size: 1.3rem; padding: .7rem .3rem; border: 0; border-radius: .6rem; font-weight: bold;
                 background: #c98a12; color: #12301f; touch-action: manipulation; }
    #sc button.plain { background: #2f5d9b; color: #fff; } #sc button.twice { background: #e0603a; color: #fff; }
    #sc input, #sc select { font-size: 1.2rem; padding: .5rem; border-radius: .4rem; border: 0; width: 100%;
                            box-sizing: border-box; background: #f4f1e6; color: #12301f; }
    #sc label { display: block; margin: .5rem 0 .15rem; font-size: 1rem; opacity: .85; }
    #sc small { display: block; font-size: .8rem; opacity: .75; margin-bottom: .15rem; }
    #sc .row { display: flex; gap: .5rem; margin: .5rem 0; } #sc .row > * { flex: 1; }
    #sc details { margin: .5rem 0; } #sc summary { font-size: 1.1rem; padding: .4rem 0; }
    #sc-new { width: 100%; margin: .4rem 0; }
    #sc-roster { display: flex; flex-wrap: wrap; gap: .4rem; margin: .4rem 0; }
    #sc #sc-roster button { flex: 0 1 auto; font-size: 1.05rem; padding: .45rem .7rem; background: #2f5d9b; color: #fff; }
    #sc #sc-roster button.seated { background: #1d3a60; color: #cfd8e6; }
    #sc li, #sc p, #sc label { overflow-wrap: anywhere; }  /* (a 12-letter name at 200 % zoom wraps, never widens the page) */
    #sc-bet-row { flex-wrap: wrap; }  /* (at 200 % zoom the 下注 button goes to a line of its own) */
    #sc-bet-row button { flex: 0 0 3.2rem; }
    #sc-bet-row input { flex: 1 1 3rem; min-width: 3rem; text-align: center; font-size: 1.6rem; }
    #sc-bet-row #sc-bet-send { flex: 1 0 6rem; }
    #sc ul { margin: .2rem 0; padding-left: 1.2rem; font-size: 1.05rem; }`;
  document.head.append(el("style", {textContent: css}));
  const box = el("div", {id: "sc"});
  $("more").append(box);
  const say = (a) => { $("msg").textContent = a.ok !== false ? "" : a.zh ? a.zh + " · " + a.en : W("ph_refused"); };
  async function sendStep(body) {
    $("msg").textContent = "";
    const [r, a] = await ask("/table", body);
    say(a);
    if (r.status === 401) location.href = "/";
    return a.ok === true;
  }
  const lines = (items) => el("ul", {}, ...items.map((t) => el("li", {textContent: t})));

  // -- a new session: 开新牌局 opens the form; 开始 takes two taps ---------------------------
  const openButton = el("button", {id: "sc-new", hidden: true});
  const form = el("div", {id: "sc-form", hidden: true});
  box.append(openButton, form);
  openButton.addEventListener("click", () => {
    drawForm(view.keeping.form, view.seat);
    form.hidden = false;
    openButton.hidden = true;
    form.scrollIntoView({block: "start"});
  });
  function drawForm(f, mine) {
    const names = f.names.map((name, i) => el("input", {value: name, maxLength: 12, id: "sc-name" + i}));
    for (const input of names) input.addEventListener("input", () => { input.dataset.edited = "1"; });
    // the table's roster (the most recent first): where a tapped name goes is the table's to say
    // (table_app/present/forms/roster_pick.py, POST …/pick): the page draws its answer
    let place = 0;
    names.forEach((input, i) => input.addEventListener("focus", () => { place = i; }));
    const buttons = (f.roster || []).map((name) => {
      const b = el("button", {type: "button", textContent: name, className: f.seated.includes(name) ? "seated" : ""});
      b.addEventListener("click", () => pick(name));
      return b;
    });
    const roster = el("div", {id: "sc-roster"}, ...buttons);
    async function pick(name) {
      const body = {names: names.map((x) => x.value), place, name};
      let r = null, a = {};
      try {
        r = await fetch(HERE + "/pick", {method: "POST", headers: {"Content-Type": "application/json"},
                                         body: JSON.stringify(body)});
        a = await r.json().catch(() => ({}));
      } catch (e) { a = {ok: false, ...words.lk_not_sent}; }
      say(a);
      if (a.ok !== true) return;
      a.names.forEach((n, i) => {
        if (names[i].value !== n) { names[i].value = n; names[i].dataset.edited = "1"; }
      });
      place = a.place;
      for (const b of buttons) b.classList.toggle("seated", a.seated.includes(b.textContent));
    }
    const base = el("input", {id: "sc-base", type: "number", inputMode: "numeric", min: 1, max: f.base_max,
                              step: 1, value: f.base});
    const selects = f.rules.map((r) => {
      const s = el("select", {id: "sc-rule-" + r.option},
                   ...r.values.map((v, i) => el("option", {value: String(i), textContent: both(v)})));
      s.value = String(r.now);
      return s;
    });
    const changed = () => selects.filter((s, i) => s.value !== String(f.rules[i].default)).length;
    const summary = el("summary");
    const sum = () => {
      summary.textContent = W("sc_rules") + ": " + (changed() ? W("rules_changed", {n: changed()}) : W("rules_default"));
    };
    for (const s of selects) s.addEventListener("change", sum);
    sum();
    const start = el("button", {id: "sc-start", textContent: W("sc_start")});
    const cancel = el("button", {id: "sc-cancel", className: "plain", textContent: W("sc_cancel")});
    let armed = -Infinity;  // (not 0: performance.now() starts at the page's load)
    start.addEventListener("click", async () => {
      if (performance.now() - armed > 4000) {  // the first tap asks, the second starts
        armed = performance.now();
        start.classList.add("twice");
        start.textContent = W("sc_start_again");
        return;
      }
      armed = -Infinity;
      start.classList.remove("twice");
      start.textContent = W("sc_start");
      const n = Number(base.value);
      const rules = Object.fromEntries(f.rules.filter((r, i) => selects[i].value !== String(r.default))
        .map((r) => [r.option, r.values[Number($("sc-rule-" + r.option).value)].value]));  // (only the changes)
      const ok = await sendStep({type: "new_session", confirm: true, players: names.map((x) => x.value.trim()),
                             base: base.value.trim() !== "" && Number.isInteger(n) ? n : base.value, rules});
      if (ok) { form.hidden = true; }
    });
    cancel.addEventListener("click", () => { form.hidden = true; openButton.hidden = false; });
    form.replaceChildren(
      el("h2", {textContent: W("sc_new")}),
      ...(f.way === "replace" ? [el("p", {id: "sc-replaces", textContent: W("sc_replaces")})] : []),
      el("label", {textContent: W("sc_names")}),
      ...names.flatMap((input, i) => [el("small", {textContent: W("sc_seat_n", {n: i + 1}) + (i === mine ? " ★" : "")}),
                                      input]),
      ...(f.roster && f.roster.length ? [el("small", {textContent: W("sc_roster")}), roster] : []),
      el("label", {textContent: W("sc_base", {max: f.base_max}), htmlFor: "sc-base"}), base,
      el("details", {id: "sc-rules"}, summary, ...f.rules.flatMap((r, i) => [
        el("label", {textContent: both(r.name), htmlFor: selects[i].id}), el("small", {textContent: both(r.what)}),
        selects[i]])),
      el("div", {className: "row"}, start, cancel));
  }

  // -- this seat's bet, while bets are open ---------------------------------------------------------
  const bets = el("div", {id: "sc-bets", hidden: true});
  box.append(bets);
  const amount = el("input", {id: "sc-bet", type: "number", inputMode: "numeric", min: 0, step: 1, value: 0});
  let bound = {step: 1, max: 0};  // − and + as the form says (table_app/present/forms/bets.py: its step, 0 to its max)
  const step = (up) => {
    const n = (Math.floor(Number(amount.value)) || 0) + (up ? bound.step : -bound.step);
    amount.value = String(Math.min(Math.max(n, 0), bound.max));
  };
  const minus = el("button", {id: "sc-bet-minus", className: "plain", textContent: "−"});
  const plus = el("button", {id: "sc-bet-plus", className: "plain", textContent: "+"});
  const sendBet = el("button", {id: "sc-bet-send"});
  minus.addEventListener("click", () => step(false));
  plus.addEventListener("click", () => step(true));
  sendBet.addEventListener("click", async () => {
    const n = Number(amount.value);
    if (await sendStep({type: "bet", amount: amount.value.trim() !== "" && Number.isInteger(n) ? n : amount.value})) {
      betList.children[view.seat].textContent = view.name + ": " + W("sc_bet_n", {n});  // (the others' within a second)
    }
  });
  const betHead = el("h2");
  const betList = el("ul", {id: "sc-bet-list"});
  const betNote = el("p", {id: "sc-bet-note"});
  bets.append(betHead, el("label", {htmlFor: "sc-bet", id: "sc-bet-label"}),
              el("div", {className: "row", id: "sc-bet-row"}, minus, amount, plus, sendBet), betNote, betList);
  let betHand = null;
  function drawBets(b, v) {
    bets.hidden = !b;
    if (!b) { betHand = null; return; }
    bound = {step: b.step, max: b.max};
    if (betHand !== v.hand) {  // a new hand: the field starts from what the table has for this seat
      betHand = v.hand;
      amount.value = String(b.entered[v.seat] ?? b.held[v.seat]);
      amount.max = String(b.max);
      amount.step = String(b.step);
    }
    betHead.textContent = W("sc_bets");
    $("sc-bet-label").textContent = W("sc_my_bet");
    sendBet.textContent = W("sc_bet_send");
    betNote.textContent = b.missing.length ? W("sc_bets_missing", {names: b.missing.join("、")}) : W("sc_bets_in");
    betList.replaceChildren(...b.names.map((name, s) => el("li", {textContent: name + ": " + (
      b.entered[s] === null ? W("sc_bet_waiting") : W("sc_bet_n", {n: b.entered[s]}))})));
  }

  VIEW_HOOKS.push((v) => {
    const k = v.keeping;
    if (!k) return;
    Object.assign(words, k.words);
    openButton.textContent = W("sc_new");
    if (!k.form) { form.hidden = true; openButton.hidden = true; } else if (form.hidden) openButton.hidden = false;
    if (k.form && !form.hidden) {  // a phone that joins while the form is open: its name, unless typed over here
      k.form.names.forEach((name, i) => {
        const input = $("sc-name" + i);
        if (input && !input.dataset.edited && input.value !== name) input.value = name;
      });
    }
    drawBets(k.bets, v);
  });
}
