// The phone page's link to the table (issue 27): the event stream, reopened by itself forever
// (with a growing pause) after any outage — the table restarting, a 503, a closed stream, a
// phone waking up —, the page carrying on at its seat; a tap the table did not get shown as
// not sent and offered again with the same tap id (the table applies a tap at most once, also
// across a restart); another phone asking for this seat (allow / refuse); "seat 2 changed
// phone". Put in whole into phone.html's second <script>: it reads the page's globals ($, W,
// render, view, HERE, tapId, VIEW_HOOKS) and draws into its own element of #more.
const LINK = (() => {
  const box = document.createElement("div");
  box.id = "link-box";
  box.innerHTML = '<p id="lk-changed"></p>'
    + '<div id="lk-unsent" hidden><span></span> <button type="button" id="lk-again"></button></div>'
    + '<div id="lk-ask" hidden><p></p><button type="button" data-allow="true"></button>'
    + '<button type="button" data-allow="false"></button></div>';
  $("more").append(box);
  const style = document.createElement("style");
  style.textContent = "#link-box p { margin: .3rem 0; text-align: center; color: #f0c14b; }"
    + " #lk-unsent { text-align: center; color: #ffb199; font-size: 1.2rem; margin: .4rem 0; }"
    + " #link-box button { font-size: 1.3rem; padding: .6rem 1rem; border: 0; border-radius: .6rem; margin: .2rem;"
    + " background: #f0c14b; color: #12301f; font-weight: bold; touch-action: manipulation; }"
    + " #lk-ask { text-align: center; border: 3px solid #f0c14b; border-radius: .8rem; padding: .5rem; margin: .5rem 0; }"
    + " #lk-ask button[data-allow=false] { background: #7a3226; color: #fff; }";
  document.head.append(style);

  // -- the event stream: reopened forever -------------------------------------------------------
  let events = null, timer = null, pause = 250, over = false;
  function open() {
    clearTimeout(timer);
    timer = null;
    if (events) events.close();
    if (over) return;
    events = new EventSource(HERE + "/events");
    events.addEventListener("view", (e) => {
      pause = 250;
      render(JSON.parse(e.data));
      document.body.classList.remove("stale");
      $("link").textContent = W("ph_live");
    });
    events.addEventListener("unbound", (e) => {  // this phone lost its seat (another took it, it left)
      const why = JSON.parse(e.data);
      over = true;
      events.close();
      for (const b of document.querySelectorAll("button:not(#leave)")) b.disabled = true;
      $("msg").textContent = why.zh + " · " + why.en;
      document.body.classList.add("stale");
    });
    events.onerror = () => {  // down, refused (503) or closed: the browser may give up; the page never does
      events.close();
      events = null;
      document.body.classList.add("stale");
      $("link").textContent = W("lk_reconnecting");
      timer = setTimeout(open, pause * (1 + Math.random() / 2));
      pause = Math.min(pause * 2, 8000);
    };
  }
  document.addEventListener("visibilitychange", () => {  // a phone waking up: its old stream may be dead
    if (!document.hidden && !over) { pause = 250; open(); }
  });

  // -- a tap: sent once, asked again while saving, shown as not sent when the table is away --------
  let unsent = null;  // {path, body, seq, done}: the tap offered again
  const NOT_SENT = () => [{status: 0}, {ok: false, code: "phone.not_sent", ...words.lk_not_sent}];
  async function attempt(path, body) {  // [r, a], or null: the table did not answer
    let failures = 0;
    for (let wait = 250; ; wait = Math.min(wait * 2, 4000)) {
      let r = null, a = {};
      try {
        r = await fetch(HERE + path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(body)});
        a = await r.json().catch(() => ({}));
      } catch (e) { r = null; }
      if (r !== null && r.status !== 202 && r.status < 500) return [r, a];
      if (r !== null && r.status === 202) { $("msg").textContent = W("ph_saving"); continue; }  // the same id again
      if (++failures >= 3) return null;
      await new Promise((done) => setTimeout(done, wait));
    }
  }
  function offer(tap) {
    unsent = tap;
    const shown = $("lk-unsent");
    shown.hidden = tap === null;
    if (tap === null) return;
    shown.firstChild.textContent = W("lk_not_sent");
    $("lk-again").textContent = W("lk_send_again");
    $("msg").textContent = W("lk_not_sent");
  }
  async function send(tap) {
    const got = await attempt(tap.path, tap.body);
    if (got === null) { offer(tap); return; }
    if (unsent === tap) offer(null);
    tap.done(got);
  }
  function drop() {  // the tap offered again is over: a newer tap, or the table moved on without it
    if (unsent === null) return;
    const tap = unsent;
    offer(null);
    tap.done(NOT_SENT());
  }
  $("lk-again").addEventListener("click", () => {
    if (unsent === null) return;
    const tap = unsent;
    offer(null);  // (in flight again: a view meanwhile does not drop it)
    $("msg").textContent = "";
    send(tap);
  });
  function ask(path, body) {
    drop();
    const tap = {path, body: {...body, tap: tapId()}, seq: view ? view.seq : null, done: null};
    return new Promise((done) => { tap.done = done; send(tap); });
  }

  // -- another phone asks for this seat; seats that changed phone -------------------------------------
  let answered = null;  // the question this phone answered (shown again only for a new one)
  for (const b of box.querySelectorAll("[data-allow]")) {
    b.addEventListener("click", async () => {
      $("lk-ask").hidden = true;
      answered = view.takeover;
      await fetch(HERE + "/takeover", {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify({allow: b.dataset.allow === "true"})}).catch(() => null);
    });
  }
  VIEW_HOOKS.push((v) => {
    if (unsent !== null && unsent.seq !== v.seq) drop();
    const asking = $("lk-ask");
    asking.hidden = !v.takeover || v.takeover === answered;
    if (!asking.hidden) {
      asking.firstChild.textContent = W("lk_takeover_ask");
      asking.querySelector("[data-allow=true]").textContent = W("lk_allow");
      asking.querySelector("[data-allow=false]").textContent = W("lk_refuse");
    }
    $("lk-changed").textContent = (v.changed || []).map((c) => c.zh + " · " + c.en).join("\n");
  });
  return {open, ask};
})();
LINK.open();
