"""The documents name files that exist (issue 40, item 7: maps that match the house): every path
of the repository that the README, ``docs/`` and ``bench/README.md`` name — a module, a page, a
test, a unit file — is there, so a move that forgets a document fails here, not in a
newcomer's hands. A path under ``/`` (``/etc/systemd/system/…``, an installed file) is the
machine's, not the repository's, and is left out; so are the few a document names on purpose
without them existing (:data:`NOT_FILES`)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted([REPO / "README.md", REPO / "bench" / "README.md", *(REPO / "docs").glob("*.md")])
TOP = ("engine", "table_app", "parlour", "hardware", "firmware_bridge", "tests", "systemd", "scripts", "docs")
EXTENSIONS = ("py", "kv", "html", "js", "css", "md", "toml", "c", "sh", "service", "timer", "conf", "bin")
PATH = re.compile(rf"(?<![\w/.-])((?:{'|'.join(TOP)})/[\w./-]*\.(?:{'|'.join(EXTENSIONS)}))\b")
NOT_FILES = {
    ("docs/inputs.md", "table_app/inputs/bluetooth.py"),  # how a new input would be added: an example
    ("bench/README.md", "engine/_tables.py"),  # a measurement of an older tree, kept as it was
}


def named_paths(text: str) -> list[str]:
    """The repository paths a document's text names.

    >>> named_paths("see `table_app/core/service.py:40` and /etc/systemd/system/x.service")
    ['table_app/core/service.py']
    """
    return [m.group(1) for m in PATH.finditer(text)]


def missing() -> list[str]:
    out = []
    for doc in DOCUMENTS:
        name = doc.relative_to(REPO).as_posix()
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for path in named_paths(line):
                if not (REPO / path).exists() and (name, path) not in NOT_FILES:
                    out.append(f"{name}:{n} names {path}, which is not there")
    return out


def test_every_file_a_document_names_is_there() -> None:
    assert DOCUMENTS and not missing(), "\n".join(missing())


def test_the_check_sees_a_missing_file() -> None:
    assert named_paths("moved to `table_app/core/gone.py` and `tests/x/test_y.py`") == \
        ["table_app/core/gone.py", "tests/x/test_y.py"]
    assert not (REPO / "table_app/core/gone.py").exists()
    assert named_paths("/usr/share/doc/xian-table/raspberry-pi.md") == []
