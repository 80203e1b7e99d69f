// The phone page's part for its player's history (issue 29): the player's record (all time) and
// the sessions this seat's player played (the table's archive: newest first, paged), read from
// /phone/<seat>/history.json — in both languages, the page picking its own (pick()); and whether the
// player is shown on the parlour's leaderboards (a toggle: POST /phone/<seat>/listed). Asked again
// when the table moves on a session's or a hand's end (the view's phase, its hands, its name).
// Put in whole into phone.html's second <script>: it reads the page's globals (VIEW_HOOKS, HERE, pick, $).
{
  const el = (tag, props = {}, ...kids) => {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...kids);
    return e;
  };
  document.head.append(el("style", {textContent: `
    #hist { margin-top: .8rem; }
    #hist ul { list-style: none; padding: 0; }
    #hist li { margin: .35rem 0; overflow-wrap: anywhere; }
    #hist li small { display: block; opacity: .75; font-size: .9rem; }
    #hist-record li { font-size: 1.1rem; }
    #hist-pager { display: flex; gap: .5rem; align-items: center; justify-content: center; font-size: .95rem; }
    #hist-pager:empty { display: none; }
    #hist-pager button { font-size: 1rem; padding: .35rem .7rem; border-radius: .4rem; border: 1px solid #5d8a6e;
                         background: none; color: inherit; }
    #hist-pager button:disabled { opacity: .35; }
    #hist-listed { display: block; width: 100%; margin: .3rem 0 .6rem; font: inherit; font-size: 1rem; padding: .45rem .7rem;
                   border-radius: .4rem; border: 1px solid #5d8a6e; background: none; color: inherit; text-align: left; }
    #hist-listed[hidden] { display: none; }
    #hist-listed b { float: right; }
    #hist-listed.off b { opacity: .7; }`}));
  const recordHead = el("h2", {id: "hist-record-head"}), record = el("ul", {id: "hist-record"});
  const sessionsHead = el("h2", {id: "hist-sessions-head"}), sessions = el("ul", {id: "hist-sessions"});
  const pager = el("div", {id: "hist-pager"});
  const listed = el("button", {id: "hist-listed", type: "button", hidden: true});
  const box = el("section", {id: "hist"}, recordHead, record, listed, sessionsHead, sessions, pager);
  $("langs").before(box);
  let got = null, page = 0, asked = "";
  const word = (key, fields = {}) => {
    const w = (got && got.words[key]) || {zh: key, en: key};
    const fill = (t) => t.replace(/\{(\w+)\}/g, (_, k) => String(fields[k]));
    return pick(fill(w.zh), fill(w.en));
  };
  const signedPoints = (n) => (n > 0 ? "+" + n : String(n));

  async function load(p) {
    const r = await fetch(HERE + "/history.json?page=" + p, {cache: "no-store"}).catch(() => null);
    if (r === null || !r.ok) return;
    got = await r.json();
    page = got.page;
    draw();
  }
  listed.addEventListener("click", async () => {
    if (got === null || typeof got.listed !== "boolean") return;
    listed.disabled = true;
    const r = await fetch(HERE + "/listed", {method: "POST", headers: {"Content-Type": "application/json"},
                                             body: JSON.stringify({listed: !got.listed})}).catch(() => null);
    listed.disabled = false;
    if (r !== null && r.ok) { got.listed = (await r.json()).listed; draw(); }
  });
  function drawListed() {
    listed.hidden = got.player === null || typeof got.listed !== "boolean";
    if (listed.hidden) return;
    listed.classList.toggle("off", !got.listed);
    listed.replaceChildren(word("ro_listed"), el("b", {textContent: word(got.listed ? "ro_listed_on" : "ro_listed_off")}));
    listed.dataset.listed = String(got.listed);
  }
  function draw() {
    if (got === null) return;
    drawListed();
    recordHead.textContent = word("hp_my_record");
    sessionsHead.textContent = word("hp_my_sessions");
    if (got.player === null) {
      record.replaceChildren(el("li", {textContent: word("hp_no_player")}));
      sessions.replaceChildren();
      pager.replaceChildren();
      box.dataset.player = "";
      return;
    }
    box.dataset.player = got.player.id;
    record.replaceChildren(...got.record.zh.map((zh, i) => el("li", {textContent: pick(zh, got.record.en[i])})));
    sessions.replaceChildren(...(got.sessions.length ? got.sessions.map((s) => {
      const mine = s.seat === null ? "" : " " + signedPoints(s.zh.totals[s.seat]);
      const li = el("li", {textContent: pick(s.zh.title, s.en.title) + mine},
                    el("small", {textContent: pick(s.zh.line, s.en.line)}));
      li.dataset.session = s.number;
      return li;
    }) : [el("li", {textContent: word("hp_none")})]));
    if (got.pages <= 1) { pager.replaceChildren(); return; }
    const prev = el("button", {textContent: word("hp_prev_page"), disabled: page <= 0});
    const next = el("button", {textContent: word("hp_next_page"), disabled: page >= got.pages - 1});
    prev.addEventListener("click", () => load(page - 1));
    next.addEventListener("click", () => load(page + 1));
    pager.replaceChildren(prev, el("span", {textContent: word("hp_page", {page: page + 1, pages: got.pages})}), next);
  }
  VIEW_HOOKS.push((v) => {
    const key = [v.phase, v.results.length, v.name].join("|");  // (a session or a hand over, a new name: ask again)
    if (key !== asked) { asked = key; load(0); } else draw();  // (the language may have changed)
  });
}
