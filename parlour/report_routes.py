"""The owner's reports on the parlour's web server (mounted by :mod:`parlour.floor_routes`,
which lets only the owner in): :data:`ROUTES`, rows for :class:`table_app.http_kit.server.Router`.

- ``/parlour/takings`` — the takings and the leaderboard as one page (zh/en, a phone and a TV;
  made here, no script): ``?period=day|week|month&from=YYYY-MM-DD&to=YYYY-MM-DD&lang=en``;
- ``/parlour/takings.json``, ``/parlour/takings.csv`` (UTF-8 with a BOM for Excel; ``bom=0``
  without) — the same query (:mod:`parlour.reports`);
- ``/parlour/leaderboard.json`` — ``?period=`` (the current day, week or month; none: all time)
  or ``from``/``to``.

Each answer reads the sessions on a connection of its own (the worker's is the worker's): the
site's ``reports_db()`` when it has one, else the worker's database opened again (its file;
for PostgreSQL ``$XIAN_PARLOUR_DB``, the URL the service was given).
"""

from __future__ import annotations

import html
import io
import os
from collections.abc import Callable
from datetime import date
from urllib.parse import urlencode

from parlour.db import Database, is_url
from parlour.owner_site import FloorSite
from parlour.players import BoardRow
from parlour.reports import (
    Range,
    board_range,
    leaderboard_json,
    leaderboard_report,
    parse_day,
    takings_json,
    takings_report,
)
from parlour.takings import ALL, Takings, write_csv
from table_app.archive.records import PERIODS
from table_app.http_kit.server import Reply, Request, Route, query_value
from table_app.present.words import tr
from table_app.system.bounded import json_line

HTML = "text/html; charset=utf-8"
JSON = "application/json"
TEXT = "text/plain; charset=utf-8"
CSV = "text/csv; charset=utf-8"
NO_STORE = ("Cache-Control", "no-store")


class BadQuery(ValueError):
    pass


def _open(site: FloorSite) -> Database:
    opener: Callable[[], Database] | None = getattr(site, "reports_db", None)
    if opener is not None:
        return opener()
    where = site.live.db.where
    spec = (os.environ.get("XIAN_PARLOUR_DB") or where) if is_url(where) else where
    return Database.open(spec, migrate=False)


def _query(request: Request, *, period_default: str | None) -> tuple[str | None, date | None, date | None]:
    period = query_value(request.query, "period") or period_default
    if period is not None and period not in PERIODS:
        raise BadQuery(f"period is one of {', '.join(PERIODS)}")
    try:
        first = parse_day(query_value(request.query, "from"))
        last = parse_day(query_value(request.query, "to"))
    except ValueError as e:
        raise BadQuery(str(e)) from None
    return period, first, last


def _bad(e: BadQuery) -> Reply:
    return Reply(400, TEXT, f"{tr('tk_bad_query', 'zh', why=e)} · {tr('tk_bad_query', 'en', why=e)}\n".encode())


def _takings(site: FloorSite, request: Request) -> tuple[str, Range, list[Takings]]:
    period, first, last = _query(request, period_default="day")
    assert period is not None
    with _open(site) as db:
        return period, Range(first, last), takings_report(db, period, first, last)


def takings_json_answer(site: FloorSite, request: Request) -> Reply:
    try:
        period, rng, rows = _takings(site, request)
    except BadQuery as e:
        return _bad(e)
    return Reply(200, JSON, json_line(takings_json(rows, period, rng)).encode(), (NO_STORE,))


def takings_csv_answer(site: FloorSite, request: Request) -> Reply:
    try:
        period, _, rows = _takings(site, request)
    except BadQuery as e:
        return _bad(e)
    out = io.StringIO()
    write_csv(rows, out, bom=query_value(request.query, "bom") != "0")
    return Reply(200, CSV, out.getvalue().encode("utf-8"),
                 (NO_STORE, ("Content-Disposition", f'attachment; filename="takings-{period}.csv"')))


def _board(site: FloorSite, request: Request) -> tuple[str | None, Range, list[BoardRow]]:
    period, first, last = _query(request, period_default=None)
    rng = board_range(period, first, last)
    with _open(site) as db:
        return period, rng, leaderboard_report(db, rng)


def leaderboard_json_answer(site: FloorSite, request: Request) -> Reply:
    try:
        period, rng, rows = _board(site, request)
    except BadQuery as e:
        return _bad(e)
    return Reply(200, JSON, json_line(leaderboard_json(rows, period, rng)).encode(), (NO_STORE,))


def page_answer(site: FloorSite, request: Request) -> Reply:
    lang = "en" if query_value(request.query, "lang") == "en" else "zh"
    try:
        period, rng, rows = _takings(site, request)
        board_period = period if rng.first is None and rng.last is None else None
        with _open(site) as db:
            board_rng = board_range(board_period, rng.first, rng.last)
            board = leaderboard_report(db, board_rng)
    except BadQuery as e:
        return _bad(e)
    return Reply(200, HTML, page(lang, period, rng, rows, board, board_rng).encode(), (NO_STORE,))


# -- the page ------------------------------------------------------------------------------

STYLE = """
  :root { --bg: #0f1714; --tile: #213329; --ink: #fff; --dim: #bfccc4; --gold: #ffeb99; }
  * { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, "Noto Sans CJK SC", "Noto Sans CJK", sans-serif; background: var(--bg);
         color: var(--ink); }
  header { min-height: 3rem; display: flex; flex-wrap: wrap; align-items: center; gap: .6rem; padding: .4rem .8rem;
           color: var(--dim); }
  header h1 { font-size: 1.25rem; margin: 0; color: var(--ink); font-weight: 600; }
  header .grow { flex: 1; }
  a.button, button, select, input { font: inherit; padding: .3rem .7rem; border-radius: .5rem; border: 0;
                                    background: #3a4d44; color: var(--ink); text-decoration: none; }
  main { padding: 0 .8rem 1rem; }
  h2 { font-size: 1.1rem; margin: 1rem 0 .4rem; color: var(--gold); font-weight: 600; }
  .scroll { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; background: var(--tile); border-radius: .5rem; overflow: hidden; }
  th, td { padding: .35rem .6rem; text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
  th { color: var(--dim); font-weight: 500; border-bottom: 1px solid #3a4d44; }
  td.t, th.t { text-align: left; }
  tr.all td { color: var(--gold); font-weight: 600; border-bottom: 2px solid #3a4d44; }
  .note { color: var(--dim); font-size: .9rem; margin: .4rem 0; }
  form { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
  @media (max-width: 700px) {
    th, td { padding: .3rem .3rem; font-size: .85rem; }
    input[type=date] { max-width: 9.5rem; }
  }
"""


def _w(key: str, lang: str) -> str:
    return html.escape(tr(key, lang))


def _link(lang: str, **query: str | None) -> str:
    return html.escape(urlencode({k: v for k, v in {**query, "lang": lang}.items() if v}))


def _form(lang: str, period: str, rng: Range) -> str:
    options = "".join(f'<option value="{p}"{" selected" if p == period else ""}>{_w("tk_" + p, lang)}</option>'
                      for p in PERIODS)
    first, last = rng.to_json()["from"] or "", rng.to_json()["to"] or ""
    csv_query = _link(lang, period=period, **{"from": first, "to": last})
    other = "en" if lang == "zh" else "zh"
    return (f'<form method="get" action="/parlour/takings"><input type="hidden" name="lang" value="{lang}">'
            f'<select name="period">{options}</select> {_w("tk_from", lang)} '
            f'<input type="date" name="from" value="{first}"> {_w("tk_to", lang)} '
            f'<input type="date" name="to" value="{last}"> <button type="submit">{_w("tk_show", lang)}</button> '
            f'<a class="button" href="/parlour/takings.csv?{csv_query}">{_w("tk_csv", lang)}</a> '
            f'<a class="button" href="/parlour/takings?{_link(other, period=period, **{"from": first, "to": last})}">'
            f'{"English" if lang == "zh" else "中文"}</a></form>')


def _takings_table(lang: str, rows: list[Takings]) -> str:
    if not rows:
        return f'<p class="note">{_w("tk_none", lang)}</p>'
    head = "".join(f'<th{" class=t" if k in ("tk_period", "tk_table") else ""}>{_w(k, lang)}</th>' for k in (
        "tk_period", "tk_table", "tk_sessions", "tk_hours", "tk_hands", "tk_fee", "tk_tea", "tk_total"))
    body = []
    for t in rows:
        name = _w("tk_all", lang) if t.table == ALL else html.escape(t.table)
        body.append(f'<tr{" class=all" if t.table == ALL else ""}><td class=t>{html.escape(t.period)}</td>'
                    f'<td class=t>{name}</td><td>{t.sessions}</td><td>{t.hours:.2f}</td><td>{t.hands}</td>'
                    f'<td>{t.table_fee}</td><td>{t.tea}</td><td>{t.total}</td></tr>')
    return f'<div class="scroll"><table><tr>{head}</tr>{"".join(body)}</table></div>'


def _board_table(lang: str, rows: list[BoardRow]) -> str:
    if not rows:
        return f'<p class="note">{_w("tk_nobody", lang)}</p>'
    head = "".join(f'<th{" class=t" if k in ("tk_player", "tk_tables") else ""}>{_w(k, lang) if k else "#"}</th>'
                   for k in ("", "tk_player", "tk_net", "tk_wins", "tk_self", "tk_hands", "tk_sessions", "tk_tables"))
    body = "".join(f'<tr><td>{i}</td><td class=t>{html.escape(r.name)}</td><td>{r.net}</td><td>{r.wins}</td>'
                   f'<td>{r.self_draws}</td><td>{r.hands}</td><td>{r.sessions}</td>'
                   f'<td class=t>{html.escape(", ".join(r.tables))}</td></tr>' for i, r in enumerate(rows, 1))
    return f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'


def page(lang: str, period: str, rng: Range, rows: list[Takings], board: list[BoardRow], board_rng: Range) -> str:
    span = _w("tk_all_time", lang) if board_rng.first is None and board_rng.last is None else \
        html.escape(f"{board_rng.first or '…'} – {board_rng.last or '…'}")
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_w("tk_title", lang)}</title><style>{STYLE}</style></head><body>'
            f'<header><h1>{_w("tk_title", lang)}</h1><span class="grow"></span>'
            f'<a class="button" href="/parlour{"?lang=en" if lang == "en" else ""}">{_w("fl_back", lang)}</a>'
            '</header><main>'
            f'{_form(lang, period, rng)}<h2>{_w("tk_title", lang)} · {_w("tk_" + period, lang)}</h2>'
            f'{_takings_table(lang, rows)}'
            f'<h2>{_w("tk_board", lang)} · {span}</h2>{_board_table(lang, board)}'
            f'<p class="note">{_w("tk_hidden_note", lang)}</p></main></body></html>\n')


ROUTES: list[Route[FloorSite]] = [
    Route("GET", r"/parlour/takings/?", page_answer, "the takings and the leaderboard (?period= &from= &to= &lang=)"),
    Route("GET", r"/parlour/takings\.json", takings_json_answer, "the takings by table and period"),
    Route("GET", r"/parlour/takings\.csv", takings_csv_answer, "the takings as CSV (UTF-8 with a BOM; bom=0 without)"),
    Route("GET", r"/parlour/leaderboard\.json", leaderboard_json_answer, "the players across tables (?period=)"),
]
