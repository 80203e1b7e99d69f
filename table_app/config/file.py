"""The table's configuration: one TOML file, every key known, documented and defaulted.

The file is found in this order, and only the first one found is read (files are not
merged, so what a table runs with is always one readable file):

1. the path given with ``--config`` (it must exist);
2. the user config dir: ``$XDG_CONFIG_HOME/xian-table/config.toml`` (``~/.config/…``);
3. ``/etc/xian-table/config.toml``;
4. none: every key takes its default.

Every key is in :data:`KEYS` with its type, default and one line of documentation;
``docs/config.md`` lists them all (a test keeps the two in step). A bad file is refused
with a message naming the file and the key.

>>> cfg = parse_config('[table]\\nclaim_window_s = 1.5\\n', "example.toml")
>>> cfg.claim_window_s, cfg.table_id
(1.5, 'table')
>>> parse_config('[table]\\nclaim_windw_s = 1\\n', "example.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
table_app.config.file.ConfigError: example.toml: unknown key 'table.claim_windw_s' (did you mean ...?)
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table_app.config.fee import FeeKeys, check_amount, check_mode, check_payer

APP = "xian-table"
SYSTEM_CONFIG = Path("/etc/xian-table/config.toml")
JOURNAL_NAME = "journal.sqlite3"


class ConfigError(ValueError):
    """The configuration file is missing, not TOML, or has an unknown key or a bad value."""


@dataclass(frozen=True)
class Key:
    """One configuration key: where it lives, its default and how its value is checked."""

    section: str
    name: str
    field: str  # the attribute of Config
    default: object
    doc: str
    check: Callable[[object], object]  # returns the value to store or raises ValueError(what is expected)

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}"


def _seconds(v: object) -> float:
    if not isinstance(v, int | float) or isinstance(v, bool) or not v >= 0 or v != v:
        raise ValueError("a number of seconds ≥ 0 (0 turns the timer off)")
    return float(v)


def _table_id(v: object) -> str:
    if not isinstance(v, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", v):
        raise ValueError("1–64 letters, digits, '-' or '_' (it becomes an MQTT topic level)")
    return v


def _prefix(v: object) -> str:
    if not isinstance(v, str) or not re.fullmatch(r"[A-Za-z0-9_/-]{1,64}", v) or v.startswith("/") or v.endswith("/"):
        raise ValueError("an MQTT topic prefix of letters, digits, '-', '_' and inner '/'")
    return v


def _broker_url(v: object) -> str:
    what = 'a broker URL in quotes, mqtt://USER:PASS@HOST:PORT or mqtts://… ("" for no MQTT)'
    if not isinstance(v, str):
        raise ValueError(what)
    if v:
        from table_app.mqtt.topics import parse_url

        try:
            parse_url(v, env={})
        except ValueError:
            raise ValueError(what) from None
    return v


def _listen(v: object) -> str:
    if not isinstance(v, str) or (v and not re.fullmatch(r"[A-Za-z0-9.:\[\]-]*:[0-9]{1,5}", v)):
        raise ValueError('"HOST:PORT" or ":PORT" in quotes ("" for no web page)')
    return v


def _prefix_or_empty(v: object) -> str:
    return v if v == "" else _prefix(v)


def _path_or_empty(v: object) -> str:
    if not isinstance(v, str):
        raise ValueError('a file path in quotes ("" for the default)')
    return v


def _flag(v: object) -> bool:
    if type(v) is not bool:
        raise ValueError("true or false")
    return v


def _gpio_pins(v: object) -> tuple[tuple[str, Any], ...]:
    """A pin map table, checked by the hardware package's own rules (pins in range, none twice).

    TOML has no null, so a seat without an LED is written ``false`` in ``leds``.
    """
    if not isinstance(v, dict):
        raise ValueError("a table of pins: buttons (4 lists of 5), dice, leds (4, false for none), buzzer")
    data = dict(v)
    if isinstance(data.get("leds"), list):
        data["leds"] = [None if pin is False else pin for pin in data["leds"]]
    from hardware.pins import PinError, PinMap

    try:
        PinMap.from_mapping(data)
    except PinError as e:
        raise ValueError(f"a usable pin map ({e})") from None
    return tuple(sorted(data.items()))


def gpio_pin_map(cfg: Config) -> Any:
    """The configured pin map (``hardware.pins.PinMap``): the default one changed by ``gpio.pins``."""
    from hardware.pins import PinMap

    return PinMap.from_mapping(dict(cfg.gpio_pins))


class Array(tuple[Any, ...]):
    """A list value (TOML array); a plain tuple default is a TOML table (``gpio.pins``)."""


def _listeners(v: object) -> Array:
    """MQTT listeners: ``ADDRESS:PORT`` each, the address an IP or an interface name."""
    from table_app.mqtt.broker_setup import parse_listener

    what = 'a list of "ADDRESS:PORT" in quotes (ADDRESS: an IP address, an interface like wlan0, or empty for all)'
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(what)
    try:
        parsed = [parse_listener(x) for x in v]
    except ValueError as e:
        raise ValueError(f"{what} ({e})") from None
    if len({(a, p) for a, p, _ in parsed}) != len(parsed):
        raise ValueError(f"{what}, each once")
    return Array(v)


def _tls_names(v: object) -> Array:
    if not isinstance(v, list) or not all(isinstance(x, str) and re.fullmatch(r"[A-Za-z0-9.:_-]{1,253}", x)
                                          for x in v):
        raise ValueError("a list of host names or IP addresses in quotes")
    return Array(v)


def _lang(v: object) -> str:
    if v not in ("zh", "en"):
        raise ValueError('"zh" (中文) or "en" (English)')
    return str(v)


def _layout(v: object) -> str:
    if v not in ("upright", "facing"):
        raise ValueError('"upright" (the screen at one side of the table) or "facing" (in the middle, '
                         'each seat\'s panel turned toward its player)')
    return str(v)


def _inches(v: object) -> float:
    if not isinstance(v, int | float) or isinstance(v, bool) or not 3 <= v <= 100:
        raise ValueError("the screen's diagonal in inches, 3 to 100 (the Pi's touch display: 7)")
    return float(v)


def _money(v: object) -> str:
    """A point's money value: a decimal ≥ 0 with at most 2 places, kept as its text ("" or 0: points only)."""
    what = 'money a point is worth, a number ≥ 0 with at most 2 decimals, like 0.5 ("" or 0: points only)'
    if isinstance(v, bool) or not isinstance(v, str | int | float):
        raise ValueError(what)
    text = v.strip() if isinstance(v, str) else repr(v)
    if text == "":
        return ""
    if not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,2})?", text.removesuffix(".0") if isinstance(v, float) else text):
        raise ValueError(what)
    whole, _, cents = text.partition(".")
    value = f"{int(whole)}.{cents.rstrip('0')}".rstrip(".")
    return "" if value == "0" else value


def _unit(v: object) -> str:
    """A currency's word, 1–8 characters; empty: the word table's (the default)."""
    if not isinstance(v, str) or not len(v.strip()) <= 8 or not v.strip().isprintable():
        raise ValueError("a currency word of 1–8 characters, like 元 or yuan")
    return v.strip()


def _level(v: object) -> str:
    levels = ("debug", "info", "warning", "error")
    if v not in levels:
        raise ValueError(f"one of {', '.join(levels)}")
    return str(v)


# Add keys here, one entry each; docs/config.md must list every key with its default.
KEYS: tuple[Key, ...] = (
    Key("table", "id", "table_id", "table", "the table's name in MQTT topics and logs", _table_id),
    Key("table", "claim_window_s", "claim_window_s", 3.0,
        "seconds the claim window stays open after a discard before the service closes it (0: no timer)", _seconds),
    Key("journal", "path", "journal_path", "",
        "the SQLite journal file; empty means journal.sqlite3 in the user data dir", _path_or_empty),
    Key("mqtt", "prefix", "mqtt_prefix", "xian", "the first level of every MQTT topic", _prefix),
    Key("mqtt", "url", "mqtt_url", "",
        "the broker, mqtt://USER:PASS@HOST:PORT (or mqtts://); empty: the table runs without MQTT", _broker_url),
    Key("mqtt", "discovery_prefix", "mqtt_discovery_prefix", "homeassistant",
        "Home Assistant's discovery prefix; empty: no discovery messages", _prefix_or_empty),
    Key("web", "listen", "web_listen", "",
        "HOST:PORT (or :PORT) of the read-only seat page for phones; empty: no web page", _listen),
    Key("panel", "device", "panel_device", "",
        "the serial button panel's device, e.g. /dev/serial/by-id/…; empty: no panel", _path_or_empty),
    Key("gpio", "enabled", "gpio_enabled", False,
        "claim buttons, dice button, seat LEDs and buzzer on the Pi's GPIO pins", _flag),
    Key("gpio", "pins", "gpio_pins", (),
        "the pin map, changes to the default (docs/gpio.md): buttons, dice, leds, buzzer", _gpio_pins),
    Key("broker", "listen", "broker_listen", Array(("127.0.0.1:1883",)),
        "the broker's plain MQTT listeners, ADDRESS:PORT (an IP, an interface like wlan0, or empty for all); "
        "applied by xian-table install", _listeners),
    Key("broker", "tls_listen", "broker_tls_listen", Array(),
        "the broker's TLS listeners, ADDRESS:PORT, with a CA the install makes; empty: no TLS", _listeners),
    Key("broker", "tls_names", "broker_tls_names", Array(),
        "more names or addresses clients use for the broker, put in its TLS certificate", _tls_names),
    Key("money", "per_point", "money_per_point", "",
        "the money a point is worth (0.5: 每分 0.5 元), shown beside points in every settle-up; empty: points only",
        _money),
    Key("money", "unit_zh", "money_unit_zh", "", "the currency word in Chinese (empty: the word table's)", _unit),
    Key("money", "unit_en", "money_unit_en", "", "the currency word in English (empty: the word table's)", _unit),
    Key("log", "level", "log_level", "info", "how much the service logs: debug, info, warning or error", _level),
    Key("ui", "lang", "ui_lang", "zh", "the touchscreen's language: zh or en (--lang; the app's 中文/English switch)",
        _lang),
    Key("ui", "layout", "ui_layout", "upright",
        "upright: the screen at one side of the table; facing: in the middle, each seat's panel turned toward its "
        "player (--facing)", _layout),
    Key("ui", "diagonal_in", "ui_diagonal_in", 7.0,
        "the screen's diagonal in inches: every size is drawn in mm from it (scores 8 mm, names 5 mm)", _inches),
    Key("fee", "mode", "fee_mode", "", "the table fee (台费): hour, hand, round or session; empty: no fee", check_mode),
    Key("fee", "rate", "fee_rate", 0, "points per hour, hand (局), round (圈) or session", check_amount),
    Key("fee", "min", "fee_min", 0, "the table fee is at least this (0: no minimum)", check_amount),
    Key("fee", "cap", "fee_cap", 0, "and at most this (0: no cap)", check_amount),
    Key("fee", "payer", "fee_payer", "aa", "who pays it: aa, big_winner (大赢家付) or winners", check_payer),
    Key("fee", "tea", "fee_tea", 0, "tea (茶水费): each seat pays this once per session", check_amount),
)

_BY_DOTTED = {k.dotted: k for k in KEYS}
_SECTIONS = sorted({k.section for k in KEYS})


@dataclass(frozen=True)
class Config(FeeKeys):
    """The values in effect; ``source`` is the file they came from (None: all defaults); the
    ``[fee]`` keys and the setting they make: :class:`table_app.config.fee.FeeKeys`."""

    source: Path | None = None
    table_id: str = "table"
    claim_window_s: float = 3.0
    journal_path: str = ""
    mqtt_prefix: str = "xian"
    mqtt_url: str = ""
    mqtt_discovery_prefix: str = "homeassistant"
    web_listen: str = ""
    panel_device: str = ""
    gpio_enabled: bool = False
    gpio_pins: tuple[tuple[str, Any], ...] = ()
    broker_listen: tuple[str, ...] = Array(("127.0.0.1:1883",))
    broker_tls_listen: tuple[str, ...] = Array()
    broker_tls_names: tuple[str, ...] = Array()
    money_per_point: str = ""
    money_unit_zh: str = ""  # the currency's words ("": the word table's, present.money.CURRENCY: the core
    money_unit_en: str = ""  # words nothing)
    log_level: str = "info"
    ui_lang: str = "zh"
    ui_layout: str = "upright"
    ui_diagonal_in: float = 7.0

    def journal_file(self, env: Mapping[str, str] | None = None) -> Path:
        """The journal's path: the configured one (``~`` expanded), else in the user data dir."""
        if self.journal_path:
            return Path(self.journal_path).expanduser()
        return user_data_dir(env) / JOURNAL_NAME


def _xdg(env: Mapping[str, str], var: str, fallback: str) -> Path:
    value = env.get(var, "")
    # The XDG spec says relative paths are invalid and must be ignored.
    if value and os.path.isabs(value):
        return Path(value)
    home = env.get("HOME") or str(Path.home())
    return Path(home) / fallback


def user_config_file(env: Mapping[str, str] | None = None) -> Path:
    return _xdg(os.environ if env is None else env, "XDG_CONFIG_HOME", ".config") / APP / "config.toml"


def user_data_dir(env: Mapping[str, str] | None = None) -> Path:
    return _xdg(os.environ if env is None else env, "XDG_DATA_HOME", ".local/share") / APP


def find_config(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                system: Path = SYSTEM_CONFIG) -> Path | None:
    """The file to read: ``path`` if given (it must exist), else the first that exists."""
    if path is not None:
        p = Path(path).expanduser()
        if not p.is_file():
            raise ConfigError(f"config file {str(p)!r} does not exist")
        return p
    for candidate in (user_config_file(env), system):
        if candidate.is_file():
            return candidate
    return None


def parse_config(text: str, source: str | os.PathLike[str] = "<config>") -> Config:
    """Check every key of a TOML document and build the Config (defaults for the rest)."""
    name = str(source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{name}: not valid TOML: {e}") from None
    values: dict[str, object] = {}
    for section, body in data.items():
        if not isinstance(body, dict):
            if section in _SECTIONS:
                raise ConfigError(f"{name}: {section!r} must be a table ([{section}]), got a value")
            raise ConfigError(f"{name}: unknown key {section!r}{_hint(section, list(_SECTIONS) + list(_BY_DOTTED))}")
        if section not in _SECTIONS:
            raise ConfigError(f"{name}: unknown section [{section}]{_hint(section, _SECTIONS)}")
        for key, value in body.items():
            dotted = f"{section}.{key}"
            spec = _BY_DOTTED.get(dotted)
            if spec is None:
                raise ConfigError(f"{name}: unknown key {dotted!r}{_hint(dotted, list(_BY_DOTTED))}")
            try:
                values[spec.field] = spec.check(value)
            except ValueError as e:
                raise ConfigError(f"{name}: key {dotted!r} must be {e}; got {value!r}") from None
    try:  # (each value is what its key's check returned: the type of its field)
        return Config(source=Path(source) if source != "<config>" else None, **values)  # type: ignore[arg-type]
    except ValueError as e:  # keys that do not go together ([fee]: FeeKeys)
        raise ConfigError(f"{name}: {e}") from None


def _hint(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(choices)})"


def load_config(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                system: Path = SYSTEM_CONFIG) -> Config:
    """Find and read the configuration (see the module doc for the search order)."""
    found = find_config(path, env, system)
    if found is None:
        return Config()
    try:
        text = found.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read config file {str(found)!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{found}: not UTF-8 text") from None
    return parse_config(text, found)


def check_value(dotted: str, value: object) -> object:
    """The value key ``dotted`` stores for ``value``, or :class:`ConfigError` saying what it must be.

    >>> check_value("money.per_point", 0.50), check_value("money.per_point", "2.25")
    ('0.5', '2.25')
    >>> check_value("money.per_point", "0.125")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    table_app.config.file.ConfigError: key 'money.per_point' must be money a point is worth, a number ≥ 0 with ...
    """
    spec = _BY_DOTTED.get(dotted)
    if spec is None:
        raise ConfigError(f"unknown key {dotted!r}{_hint(dotted, list(_BY_DOTTED))}")
    try:
        return spec.check(value)
    except ValueError as e:
        raise ConfigError(f"key {dotted!r} must be {e}; got {value!r}") from None


def save_keys(path: str | os.PathLike[str], values: Mapping[str, object]) -> Path:
    """Write ``values`` (``{"ui.lang": "en", …}``) into the TOML file at ``path`` — created if
    missing, its other lines and comments kept — after checking each value as :func:`parse_config`
    would; the file is replaced whole (written beside it, then renamed), so it is never half
    written. The settings screen saves with this.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "config.toml"
    >>> _ = p.write_text("# my table\\n[table]\\nid = \\"den\\"\\n")
    >>> _ = save_keys(p, {"table.claim_window_s": 2.5, "ui.lang": "en"})
    >>> print(p.read_text(), end="")
    # my table
    [table]
    id = "den"
    claim_window_s = 2.5
    <BLANKLINE>
    [ui]
    lang = "en"
    >>> load_config(p).ui_lang
    'en'
    """
    target = Path(path).expanduser()
    for dotted, v in values.items():
        check_value(dotted, v)
    lines = target.read_text(encoding="utf-8").splitlines() if target.is_file() else []
    for dotted, v in values.items():
        section, name = dotted.split(".", 1)
        line = f"{name} = {_toml_value(v)}"
        header = next((i for i, text in enumerate(lines) if text.strip() == f"[{section}]"), None)
        if header is None:
            if lines and lines[-1].strip():
                lines.append("")
            lines += [f"[{section}]", line]
            continue
        end = next((i for i in range(header + 1, len(lines)) if lines[i].strip().startswith("[")), len(lines))
        found = next((i for i in range(header + 1, end)
                      if re.match(rf"\s*{re.escape(name)}\s*=", lines[i])), None)
        if found is not None:
            lines[found] = line
        else:
            at = end
            while at > header + 1 and not lines[at - 1].strip():
                at -= 1
            lines.insert(at, line)
    text = "\n".join(lines) + "\n"
    parse_config(text, target)  # what is written must read back
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)
    return target


def defaults_toml() -> str:
    """A complete config file with every key at its default, each with its documentation."""
    lines: list[str] = []
    for section in dict.fromkeys(k.section for k in KEYS):
        lines.append(f"[{section}]")
        for k in KEYS:
            if k.section == section:
                lines.append(f"# {k.doc}")
                lines.append(f"{k.name} = {_toml_value(k.default)}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, Array):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, tuple):  # a table given as (key, value) pairs
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return repr(v)


def _self_check() -> None:
    fields = {f.name: f.default for f in dataclasses.fields(Config)}
    for k in KEYS:
        assert fields.get(k.field, object()) == k.default, f"Config.{k.field} default differs from KEYS"


_self_check()
