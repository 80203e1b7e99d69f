import json

from engine.tiles import format_tiles, parse_tiles


def test_help_lists_the_verbs(cli):
    out = cli("--help", check=True).stdout
    for verb in ("run", "hand", "bench"):
        assert verb in out


def test_thirteen_tiles_list_the_waits_with_chinese_names(cli):
    out = cli("hand", "1112345678999m", check=True).stdout
    assert "一万 一万 一万 二万" in out
    assert "waiting on 9 tile(s)" in out
    assert "2m 二万  单调 single  +bonus" in out
    assert "9m 九万  平胡 plain  (1 left" in out


def test_fourteen_tiles_with_a_win_tile(cli):
    proc = cli("hand", "123m13p456s789s11z2p", "--win-tile", "2p", "--json", check=True)
    data = json.loads(proc.stdout)
    assert data["winning"] is True and data["wait"] == "closed" and data["bonus"] is True
    assert data["splits"] == [{"split": "11z 123m 123p 456s 789s", "kinds": ["closed"]}]
    human = cli("hand", "123m13p456s789s11z2p", "-w", "2p", check=True).stdout
    assert "和牌 winning hand" in human and "夹张 closed" in human


def test_fourteen_tiles_without_a_win_tile_show_each_reading(cli):
    data = json.loads(cli("hand", "123m12p456s789s11z3p", "--json", check=True).stdout)
    assert data["winning"] is True
    assert data["by_win_tile"]["3p"] == {"wait": "edge", "bonus": False}
    assert data["by_win_tile"]["2p"] == {"wait": "closed", "bonus": True}
    edge = json.loads(cli("hand", "123m12p456s789s11z3p", "--json", "--edge-bonus").stdout)
    assert edge["by_win_tile"]["3p"] == {"wait": "edge", "bonus": True}


def test_melds_and_kongs(cli):
    data = json.loads(cli("hand", "1z", "--melds", "111m", "222p", "333s", "4444z", "--json", check=True).stdout)
    assert data["tiles"] == 13 and [w["tile"] for w in data["waits"]] == ["1z"]
    assert data["waits"][0]["left"] == 3


def test_not_a_winning_hand(cli):
    out = cli("hand", "123z123m456m789m55p", check=True).stdout
    assert "不是和牌 — not a winning hand" in out


def test_bad_input_exits_2_and_quotes_it(cli):
    for text, msg in (("10m", "'10m'"), ("8z", "'8z'"), ("12x", "'12x'"), ("11111m", "5 copies of 1m")):
        proc = cli("hand", text)
        assert proc.returncode == 2
        assert msg in proc.stderr
    proc = cli("hand", "123m", "--json")
    assert proc.returncode == 2 and "give 14" in json.loads(proc.stdout)["error"]


def test_batch_answers_every_line_and_keeps_going(cli, tmp_path):
    lines = [
        "1112345678999m",
        "# a comment",
        "123m456p789s11122z",
        "10m",
        json.dumps({"hand": "13m2m11z", "melds": ["456p", "7777s", "555z"], "win_tile": "2m"}),
    ]
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = cli("hand", "--batch", str(f))
    assert proc.returncode == 2  # one line was bad
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 3, 4, 5]
    assert "".join(w["tile"] for w in out[0]["waits"]) == "1m2m3m4m5m6m7m8m9m"
    assert out[1]["winning"] is True
    assert "'10m'" in out[2]["error"]
    assert out[3]["wait"] == "closed" and out[3]["melds"] == ["456p", "7777s", "555z"]
    same = cli("hand", "--batch", "-", input="\n".join(lines[:3]) + "\n")
    assert same.returncode == 0 and len(same.stdout.splitlines()) == 2


def test_batch_output_matches_single_json(cli):
    single = json.loads(cli("hand", "1113m", "--melds", "777z", "888p", "999s", "--json").stdout)
    batch = json.loads(
        cli("hand", "--batch", "-", input=json.dumps({"hand": "1113m", "melds": ["777z", "888p", "999s"]})).stdout
    )
    batch.pop("line")
    assert batch == single
    assert format_tiles(parse_tiles("".join(w["tile"] for w in single["waits"]))) == "23m"


def test_missing_batch_file(cli):
    proc = cli("hand", "--batch", "/nonexistent/hands.txt")
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_run_reads_hands_from_a_pipe(cli):
    proc = cli("run", input="1112345678999m\n123m13p456s789s11z2p win=2p\n10m\nquit\n123m\n")
    assert proc.returncode == 0
    assert "waiting on 9 tile(s)" in proc.stdout
    assert "夹张 closed" in proc.stdout
    assert "! bad tile text '10m'" in proc.stdout
    assert proc.stdout.count("手牌 hand:") == 2  # nothing after quit


def test_bench_reports_both_measures(cli):
    proc = cli("bench", "--only", "hand", "--runs", "1", "--json", check=True)
    data = json.loads(proc.stdout)
    names = [r["name"] for r in data["results"]]
    assert names == [
        "is_winning_hand (bytes counts)",
        "is_winning_hand (list counts)",
        "winning_tiles (bytes, patterns new)",
        "winning_tiles (bytes counts)",
        "winning_tiles (list counts)",
    ]
    first = data["results"][0]
    assert first["value"] > 0 and first["target"] == 1_500_000 and isinstance(first["meets_target"], bool)
    assert cli("bench", "--runs", "0").returncode == 2


def test_bench_measures_the_engines_import(cli):
    proc = cli("bench", "--only", "startup", "--runs", "1", "--json", check=True)
    (time, memory) = json.loads(proc.stdout)["results"]
    assert time["name"] == "import engine (time)" and time["target_max"] == 60 and 0 < time["value"] < 10_000
    assert memory["unit"] == "MB" and memory["target_max"] == 15 and 0 < memory["value"] < 200
    text = cli("bench", "--only", "startup", "--runs", "1", check=True).stdout
    assert "import engine (time)" in text and "target ≤ 60" in text
