"""Keeping score from phones in headless Chromium at a phone's size (390×844, issue 27 item 7):
four phones join a table with no session, one fills in the new session's form (the names the
phones gave, a base, a rule in words) and starts it with two taps; each phone enters its bet,
the table takes the four; after the session, a new one asks first and the last session's
ranking and settle-up stay on the phones. Screenshots to ``docs/phones/`` with
``XIAN_TABLE_DOC_SHOTS=1``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.chromium import Chromium, Page, join_phone, shots_dir, until
from tests.table_app.web.test_phones_browser import Serve, free_port, lines, tap

pytestmark = pytest.mark.browser

NAMES = ["王小明", "Ana", "李雷", "Zoë"]


def visible(page: Page, selector: str) -> bool:
    return bool(page.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                        " return !!e && e.offsetParent !== null; })()"))


def fill(page: Page, selector: str, text: str) -> None:
    page.js(f"document.querySelector({json.dumps(selector)}).value = ''")
    page.type(selector, text)


@pytest.mark.slow
def test_phones_start_a_session_bet_and_keep_the_last_session(tmp_path: Path) -> None:
    docs = shots_dir("phones", tmp_path)
    serve = Serve(tmp_path, free_port())
    browser = Chromium(tmp_path / "profile")
    try:
        assert until(lambda: "/join/" in serve.join_url()), serve.said
        phones: list[Page] = []
        for seat, name in enumerate(NAMES):
            page = join_phone(browser, serve.join_url(), seat, name)
            phones.append(page)

        # the form: the phones' names, the base, the rules in words; 开始 takes two taps
        first = phones[1]
        first.wait("document.getElementById('sc-new').offsetParent !== null", "开新牌局")
        assert not visible(first, "#steps [data-step=new_session]")  # (the page's one-tap button is gone)
        first.wait("view.keeping.form.names[3] === 'Zoë'", "the last phone's name")  # (its view within a second)
        first.click("#sc-new")
        assert first.js("[0, 1, 2, 3].map(i => document.getElementById('sc-name' + i).value)") == NAMES
        fill(first, "#sc-base", "5")
        first.click("#sc-rules summary")
        first.js("const s = document.getElementById('sc-rule-seven_pairs'); s.value = '1';"
                 " s.dispatchEvent(new Event('change'))")
        assert first.js("document.querySelector('#sc-rules summary').textContent") == \
            "规则 · Rules: 西安规则，改了1项 · Xi'an rules, 1 changed"
        first.js("document.getElementById('sc-form').scrollIntoView()")
        first.screenshot(docs / "new-session.png")
        first.click("#sc-start")
        assert first.js("document.getElementById('sc-start').textContent").startswith("再点一下开始")
        assert serve.call({"type": "state"})["seq"] == 0  # one tap: nothing yet
        tap(serve, first, "#sc-start")
        state = serve.state()
        assert state["players"] == NAMES and state["base"] == 5 and state["rules"] == {"seven_pairs": True}
        first.wait("document.getElementById('sc-form').hidden", "the form closed")
        tap(serve, phones[0], "[data-step=seating]")  # 王小明 drew East
        assert serve.call({"type": "score_hand", "winner": 2, "how": "self_drawn"})["ok"]  # (entered at the table)
        assert serve.call({"type": "next_hand"})["ok"]

        # bets: each phone its own; the table takes them when all four are in
        seq = serve.call({"type": "state"})["seq"]
        for seat, amount in enumerate((2, 0, 3)):
            page = phones[seat]
            page.wait(f"document.body.dataset.seq === '{seq}'", "the table as it is now")  # (hand 2's bets)
            page.wait("document.getElementById('sc-bets').offsetParent !== null", "the bets")
            fill(page, "#sc-bet", str(amount))
            page.click("#sc-bet-send")
            phones[3].wait(f"document.querySelectorAll('#sc-bet-list li')[{seat}].textContent"
                           f" === '{NAMES[seat]}: {amount} 注 · {amount}'", f"seat {seat}'s bet (within a second)")
        assert serve.state()["bets"] == [0, 0, 0, 0] and serve.state()["phase"] == "betting"
        last_phone = phones[3]
        last_phone.wait("document.getElementById('sc-bet-note').textContent.startsWith('还没下注：Zoë（')",
                        "Zoë's bet missing")
        fill(last_phone, "#sc-bet", "0")
        last_phone.click("#sc-bet-plus")
        assert last_phone.js("document.getElementById('sc-bet').value") == "1"  # + adds one
        last_phone.js("document.getElementById('sc-bets').scrollIntoView()")
        last_phone.screenshot(docs / "bets.png")
        tap(serve, last_phone, "#sc-bet-send")
        assert serve.state()["bets"] == [2, 0, 3, 1]
        last_phone.wait("document.getElementById('sc-bet-note').textContent.startsWith('四家都下好了')", "all in")

        # the end; a new session asks first; the last session stays
        assert serve.call({"type": "end_session"})["ok"]
        phones[0].wait("document.getElementById('sc-new').offsetParent !== null", "开新牌局 again")
        phones[0].click("#sc-new")
        phones[0].click("#sc-start")
        assert serve.state()["phase"] == "ended"
        tap(serve, phones[0], "#sc-start")
        assert serve.state()["phase"] == "seating" and serve.state()["base"] == 5  # (the form kept the last base)
        for page in phones:
            page.wait("!document.getElementById('past').hidden", "the last session")
        phones[2].click("#past-head")
        ranking = lines(phones[2], "final-rank")
        assert ranking[0].startswith("第1名 李雷 +") and len(ranking) == 4
        settle = lines(phones[2], "final-pays")
        assert settle and all(" 给 李雷 " in line for line in settle)
        phones[2].js("document.getElementById('past').scrollIntoView()")
        phones[2].screenshot(docs / "last-session.png")
    finally:
        browser.close()
        code = serve.close()
    assert code == 0, "".join(serve.said)
