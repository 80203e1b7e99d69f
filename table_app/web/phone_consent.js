// The phone page's part for who decides: a win's confirmation, 诈胡, undo, another phone taking this seat (issue 27).
// Put in whole into phone.html's second <script>: it reads the page's globals (VIEW_HOOKS, ask, W, both, $).
// Each seat decides its own (docs/phones.md): the proposals a second seat agrees to, what an undo
// took back, this seat's undo and 诈胡 buttons, and result-only entry (只记分) with the hand's bets
// (prefilled from the bets the phones entered; once all four are in, the form offers to take them
// back first). The view's ``decide`` part says what to offer (the server asks engine/authority.py);
// words come with it.
const decideBox = document.createElement("div");
decideBox.id = "decide";
$("more").append(decideBox);
const decideStyle = document.createElement("style");
decideStyle.textContent = `
  #decide .undone { background: #f0c14b; color: #12301f; border-radius: .5rem; padding: .4rem .6rem;
                    margin: .4rem 0; font-weight: bold; text-align: center; }
  #decide .proposal { border: 2px solid #f0c14b; border-radius: .7rem; padding: .5rem .6rem; margin: .5rem 0; }
  #decide .proposal .what { font-size: 1.25rem; font-weight: bold; overflow-wrap: anywhere; }
  #decide .proposal .by { font-size: .95rem; opacity: .85; }
  #decide .row { display: flex; flex-wrap: wrap; gap: .5rem; margin: .4rem 0; }
  #decide button { flex: 1 1 40%; font-size: 1.2rem; padding: .65rem .3rem; border: 0; border-radius: .6rem;
                   font-weight: bold; touch-action: manipulation; background: #c98a12; color: #12301f; }
  #decide button.no { background: #7a3226; color: #fff; }
  #decide button.on { background: #f4f1e6; color: #12301f; outline: 3px solid #f0c14b; }
  #decide button:disabled { opacity: .3; }
  #decide .form { border-top: 1px solid #f4f1e644; margin-top: .4rem; }
  #decide .form p { margin: .5rem 0 .1rem; opacity: .85; }
  #decide .form .row button { flex: 1 1 22%; font-size: 1.05rem; background: #2f5d9b; color: #fff; }
  #decide .form .row button.on { background: #f4f1e6; color: #12301f; }
  #decide .last { font-size: .95rem; opacity: .8; text-align: center; }
  #decide .form p.why { font-size: .9rem; opacity: .8; overflow-wrap: anywhere; }
  #decide .form .bets { display: grid; grid-template-columns: repeat(auto-fit, minmax(4.5rem, 1fr)); gap: .4rem; }
  #decide .form .bets label { display: flex; flex-direction: column; gap: .15rem; min-width: 0; }
  #decide .form .bets span { font-size: .95rem; overflow-wrap: anywhere; }
  #decide .form .bets input { width: 100%; box-sizing: border-box; font-size: 1.3rem; text-align: center;
                              padding: .4rem .1rem; border: 0; border-radius: .4rem; }`;
document.head.append(decideStyle);
let entryOpen = false;
function freshEntry() {  // a seat's bet null: as the view prefills it (the phones' bets), until typed here
  return {winner: null, how: null, discarder: null, wait: "plain", extra: null, kongs: [[0, 0], [0, 0], [0, 0], [0, 0]],
          bets: [null, null, null, null]};
}
let entry = freshEntry();
let decideView = null;
let decideLater = false;  // a view came while a bet was being typed: drawn when the field is left
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function button(text, onClick, cls) {
  const b = el("button", text, cls);
  b.addEventListener("click", onClick);
  return b;
}
async function decide(body) {
  $("msg").textContent = "";
  const [r, a] = await ask("/table", body);
  $("msg").textContent = a.ok ? (a.proposed ? a.zh + " · " + a.en : "") : a.zh ? a.zh + " · " + a.en : W("ph_refused");
  if (r.status === 401) location.href = "/";
  return a.ok;
}
function proposalCard(p) {
  const card = el("div", undefined, "proposal");
  card.dataset.kind = p.kind;
  card.append(el("div", both(p.what), "what"), el("div", both(p.by_words) + " · " + W("dc_left", {n: p.left}), "by"));
  const row = el("div", undefined, "row");
  if (p.mine && p.decides) row.append(button(W("dc_confirm"), () => decide({type: "agree", kind: p.kind})));
  if (p.mine && !p.decides) row.append(el("div", W("dc_waiting")));
  if (!p.mine) row.append(button(W("dc_agree"), () => decide({type: "agree", kind: p.kind})));
  row.append(button(W(p.mine ? "dc_withdraw" : "dc_refuse"), () => decide({type: "refuse", kind: p.kind}), "no"));
  card.append(row);
  return card;
}
function choices(label, items) {  // items: [text, chosen, enabled, onClick]
  const p = el("p", label);
  const row = el("div", undefined, "row");
  for (const [text, on, enabled, click] of items) {
    const b = button(text, () => { click(); drawDecide(); }, on ? "on" : "");
    b.disabled = !enabled;
    row.append(b);
  }
  return [p, row];
}
function entryForm(offer, names) {
  const e = entry;
  const form = el("div", undefined, "form");
  const won = e.winner !== null && e.winner !== "nobody";
  form.append(...choices(W("who_won"), [
    ...names.map((n, s) => [n, e.winner === s, true, () => { e.winner = s; if (e.discarder === s) { e.how = null; e.discarder = null; } }]),
    [W("nobody"), e.winner === "nobody", true, () => { e.winner = "nobody"; }]]));
  form.append(...choices(W("how_won"), [
    [W("self_drawn"), e.how === "self_drawn", won, () => { e.how = "self_drawn"; e.discarder = null; }],
    ...names.map((n, s) => [W("fed_by", {name: n}), e.how === "discard" && e.discarder === s, won && s !== e.winner,
                            () => { e.how = "discard"; e.discarder = s; }]).filter((_, s) => s !== e.winner)]));
  const kongState = !won ? "none" : e.kongs[e.winner].some((k) => k) ? "own" : e.kongs.some((k) => k[0] || k[1]) ? "other" : "none";
  const allowed = won && e.how ? offer.extras[`${e.winner}:${e.how}:${kongState}`] || [] : [];
  if (e.extra && !allowed.includes(e.extra)) e.extra = null;  // (no longer what the engine allows)
  form.append(...choices(W("wait"), [
    ...offer.waits.map((w) => [W("wait_" + w), e.wait === w, won, () => { e.wait = w; }]),
    ...["kong_bloom", "heavenly", "robbed_kong"].map((x) => [W("kind_" + x), e.extra === x, allowed.includes(x),
                                                             () => { e.extra = e.extra === x ? null : x; }])]));
  if (won) {  // why a special win is not offered (the engine's bar, in words: issue 28)
    const why = e.how ? Object.values(offer.why[`${e.winner}:${e.how}:${kongState}`] || {}).map(both) : [W("xb_how")];
    if (why.length) form.append(el("p", why.join(" · "), "why"));
  }
  form.append(el("p", W("dc_kongs")));
  form.append(...kongRows(e, names));
  form.append(el("p", W("dc_bets")), betsRow(e, offer, names));
  const ready = e.winner === "nobody" || (won && e.how !== null);
  const send = button(W("dc_entry_send"), async () => {
    if (await decide(entryBody(e, offer))) { entryOpen = false; drawDecide(); }
  });
  send.disabled = !ready;
  const row = el("div", undefined, "row");
  row.append(send, button(W("dc_entry_close"), () => { entryOpen = false; drawDecide(); }, "no"));
  form.append(row);
  return form;
}
function kongRows(e, names) {
  const rows = [];
  names.forEach((n, s) => {
    const row = el("div", undefined, "row");
    row.append(el("span", n));
    ["entry_kong_c", "entry_kong_e"].forEach((word, k) => {
      row.append(button(W(word, {n: e.kongs[s][k]}), () => { e.kongs[s][k] = (e.kongs[s][k] + 1) % 5; drawDecide(); }));
    });
    rows.push(row);
  });
  return rows;
}
function betsRow(e, offer, names) {  // the hand's bets: one field a seat, prefilled by the view
  const box = el("div", undefined, "bets");
  const shown = betsShown(e, offer);
  names.forEach((n, s) => {
    const input = el("input");
    Object.assign(input, {type: "number", inputMode: "numeric", min: 0, max: offer.bets_max, step: 1, value: shown[s]});
    input.dataset.seat = s;
    input.addEventListener("input", () => { e.bets[s] = input.value; });
    input.addEventListener("blur", (ev) => {  // (to a button or field: its own tap draws; else draw what came)
      if (decideLater && !ev.relatedTarget) setTimeout(drawDecide, 0);
    });
    const cell = el("label", undefined, "bet");
    cell.append(el("span", n), input);
    box.append(cell);
  });
  return box;
}
function betsShown(e, offer) {
  return e.bets.map((typed, s) => typed === null ? String(offer.bets[s]) : typed);
}
function entryBody(e, offer) {
  const kongs = [];
  e.kongs.forEach((k, s) => {
    for (let i = 0; i < k[0]; i++) kongs.push({seat: s, kind: "concealed"});
    for (let i = 0; i < k[1]; i++) kongs.push({seat: s, kind: "exposed"});
  });
  const bets = betsShown(e, offer).map((t) => {  // (not a whole number: sent as typed, refused)
    const n = Number(t);
    return String(t).trim() !== "" && Number.isInteger(n) ? n : t;
  });
  return e.winner === "nobody" ? {type: "score_hand", winner: null, kongs, bets}
    : {type: "score_hand", winner: e.winner, how: e.how, discarder: e.discarder, wait: e.wait, extra: e.extra, kongs, bets};
}
function betsInForm(d) {  // all four bets are in, the hand not begun: take them back (an undo), then enter the result
  const form = el("div", undefined, "form");
  form.append(el("p", both(d.bets_in.words), "bets-in"));
  const row = el("div", undefined, "row");
  if (!d.proposals.some((p) => p.kind === "undo")) row.append(button(W("dc_take_bets_back"), () => decide({type: "undo"})));
  row.append(button(W("dc_entry_close"), () => { entryOpen = false; drawDecide(); }, "no"));
  form.append(row);
  return form;
}
function drawDecide() {
  const v = decideView;
  if (!v || !v.decide) return;
  if (document.activeElement && document.activeElement.matches("#decide .bets input")) {  // (not under a finger)
    decideLater = true;
    return;
  }
  decideLater = false;
  const d = v.decide;
  const parts = [];
  if (d.undone) parts.push(el("div", both(d.undone), "undone"));
  for (const p of d.proposals) parts.push(proposalCard(p));
  const row = el("div", undefined, "row");
  if (d.false_win && !d.proposals.some((p) => p.kind === "reject_win")) {
    row.append(button(W("dc_call_false_win"), () => decide({type: "reject_win"}), "no"));
  }
  if (v.seq && !d.proposals.some((p) => p.kind === "undo")) {
    row.append(button(W("dc_undo_button"), () => decide({type: "undo"})));
  }
  if ((d.entry || d.bets_in) && !entryOpen && !d.proposals.some((p) => p.kind === "score_hand")) {
    row.append(button(W("dc_entry_open"), () => { entryOpen = true; drawDecide(); }));
  }
  parts.push(row);
  if (d.last_step && !d.proposals.some((p) => p.kind === "undo")) parts.push(el("div", "↶ " + both(d.last_step), "last"));
  if (d.entry && entryOpen) parts.push(entryForm(d.entry, d.names));
  else if (d.bets_in && entryOpen) parts.push(betsInForm(d));
  if (!d.entry && !d.bets_in) entryOpen = false;
  decideBox.replaceChildren(...parts);
}
VIEW_HOOKS.push((v) => {
  if (decideView && v.decide && v.decide.entry && decideView.decide && !decideView.decide.entry) {
    entry = freshEntry();
  }
  decideView = v;
  if (v.decide) Object.assign(words, v.decide.words);  // (its words join the page's: W follows the language chosen)
  drawDecide();
});
