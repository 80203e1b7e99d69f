"""Configuration: search order, defaults, the data dir, and errors that name the key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from table_app.config.file import (
    KEYS,
    Config,
    ConfigError,
    _toml_value,
    defaults_toml,
    find_config,
    load_config,
    parse_config,
)

ROOT = Path(__file__).resolve().parents[3]


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home")}


def test_no_file_anywhere_gives_the_defaults(tmp_path: Path) -> None:
    cfg = load_config(env=_env(tmp_path), system=tmp_path / "etc.toml")
    assert cfg == Config()
    assert cfg.claim_window_s == 3.0
    assert cfg.journal_file(_env(tmp_path)) == tmp_path / "home/.local/share/xian-table/journal.sqlite3"


def test_xdg_dirs_are_used_when_absolute_and_ignored_when_relative(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "conf")}
    assert Config().journal_file(env) == tmp_path / "data/xian-table/journal.sqlite3"
    (tmp_path / "conf/xian-table").mkdir(parents=True)
    (tmp_path / "conf/xian-table/config.toml").write_text("[table]\nid = \"xdg\"\n")
    assert load_config(env=env, system=tmp_path / "none").table_id == "xdg"
    relative = dict(env, XDG_DATA_HOME="data", XDG_CONFIG_HOME="conf")
    assert Config().journal_file(relative) == tmp_path / "home/.local/share/xian-table/journal.sqlite3"
    assert find_config(env=relative, system=tmp_path / "none") is None


def test_search_order_path_then_user_then_system(tmp_path: Path) -> None:
    env = _env(tmp_path)
    system = tmp_path / "etc/config.toml"
    system.parent.mkdir()
    system.write_text('[table]\nid = "system"\n')
    assert load_config(env=env, system=system).table_id == "system"
    user = tmp_path / "home/.config/xian-table/config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[table]\nid = "user"\n')
    assert load_config(env=env, system=system).table_id == "user"
    given = tmp_path / "given.toml"
    given.write_text('[table]\nid = "given"\nclaim_window_s = 0.5\n')
    cfg = load_config(given, env=env, system=system)
    assert (cfg.table_id, cfg.claim_window_s, cfg.source) == ("given", 0.5, given)
    # only one file is read: the given one does not inherit the user file's keys
    assert load_config(given, env=env, system=system).mqtt_prefix == "xian"


def test_a_given_path_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml", env=_env(tmp_path))


def test_journal_path_from_the_file_expands_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = parse_config('[journal]\npath = "~/tables/one.sqlite3"\n', "c.toml")
    assert cfg.journal_file() == tmp_path / "tables/one.sqlite3"


@pytest.mark.parametrize(("text", "key"), [
    ("[table]\nclaim_window_s = -1\n", "'table.claim_window_s'"),
    ('[table]\nclaim_window_s = "3"\n', "'table.claim_window_s'"),
    ("[table]\nid = 'has space'\n", "'table.id'"),
    ("[journal]\npath = 3\n", "'journal.path'"),
    ("[log]\nlevel = 'loud'\n", "'log.level'"),
    ("[mqtt]\nprefix = '/x'\n", "'mqtt.prefix'"),
    ("[table]\nclaim_window = 3\n", "'table.claim_window'"),
    ("[tabel]\nid = 'x'\n", "[tabel]"),
    ("table = 3\n", "'table'"),
])
def test_bad_values_and_unknown_keys_are_named(text: str, key: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_config(text, "my.toml")
    assert key in str(e.value)
    assert str(e.value).startswith("my.toml: ")


def test_a_typo_gets_a_suggestion() -> None:
    with pytest.raises(ConfigError, match=r"did you mean 'table.claim_window_s'"):
        parse_config("[table]\nclaim_windows_s = 2\n", "c.toml")


def test_not_toml_is_refused_with_the_file_name(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text("[table\nid=1")
    with pytest.raises(ConfigError, match=re.escape(f"{f}: not valid TOML")):
        load_config(f)


def test_the_defaults_file_parses_back_to_the_defaults() -> None:
    assert parse_config(defaults_toml(), "defaults.toml") == Config(source=Path("defaults.toml"))


def test_docs_list_every_key_with_its_default() -> None:
    doc = (ROOT / "docs/config.md").read_text(encoding="utf-8")
    for k in KEYS:
        rows = [line for line in doc.splitlines() if line.startswith(f"| `{k.dotted}`")]
        assert rows, f"docs/config.md lacks a row for {k.dotted}"
        default = _toml_value(k.default)
        assert f"`{default}`" in rows[0], f"docs/config.md row for {k.dotted} lacks its default {default}"


def test_panel_and_gpio_keys() -> None:
    from hardware.pins import DEFAULT
    from table_app.config.file import gpio_pin_map

    cfg = parse_config('[panel]\ndevice = "/dev/ttyACM0"\n[gpio]\nenabled = true\n'
                       '[gpio.pins]\nleds = [0, 1, false, false]\ndice = 14\n', "t.toml")
    assert cfg.panel_device == "/dev/ttyACM0" and cfg.gpio_enabled is True
    pins = gpio_pin_map(cfg)
    assert pins.leds == (0, 1, None, None) and pins.dice == 14
    assert pins.buttons == DEFAULT.buttons  # keys left out keep the default
    assert gpio_pin_map(Config()) == DEFAULT
    with pytest.raises(ConfigError, match=r"key 'gpio\.enabled' must be true or false; got 1"):
        parse_config("[gpio]\nenabled = 1\n", "t.toml")
    with pytest.raises(ConfigError, match=r"key 'gpio.pins' must be a usable pin map .*the buzzer has pin 40"):
        parse_config("[gpio.pins]\nbuzzer = 40\n", "t.toml")
    with pytest.raises(ConfigError, match="unknown key"):
        parse_config("[gpio.pins]\nbell = 5\n", "t.toml")
