"""Words once (issue 40 item 5): what a player or an owner reads comes from ``table_app/present``
in zh and en, never worded inside a front end. The front ends — the command line, the phone and
table pages, the touchscreen, Home Assistant's discovery — hold no Chinese text of their own.

Read: in Python, every string (f-strings' text included) but docstrings (a help epilog cut
from one is read); comments are left out
(they explain, nobody reads them at a table). In the pages (HTML, JavaScript) and the
touchscreen's ``.kv`` files, everything outside comments. Chinese is a CJK ideograph (kana
too); the full-width punctuation alone (【】，) is typography, not words.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FRONT_ENDS = ("table_app/cli", "table_app/web", "table_app/ui", "parlour/home_assistant.py",
              "table_app/mqtt/discovery.py")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

# Chinese in a front end that is data, not words (file, the exact text): each says why.
ALLOWED: dict[tuple[str, str], str] = {
    # a sample name in the verb's examples (what an owner types for a player), not a word of ours
    ("table_app/cli/players.py", "王小明"): "a player's name in the examples",
}


def front_end_files() -> list[Path]:
    out: list[Path] = []
    for part in FRONT_ENDS:
        path = REPO / part
        out += [path] if path.is_file() else sorted(p for p in path.rglob("*")
                                                    if p.suffix in (".py", ".html", ".js", ".kv"))
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' nodes: a string standing alone as a statement (a module's,
    a class's, a function's docstring, or one under a constant), which nobody is shown."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def python_texts(source: str) -> list[tuple[int, str]]:
    """Every string a Python module may show (not its docstrings), with its line."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    # a help epilog cut from the module's docstring ("Examples::") is shown: read that part too
    shown_doc = (ast.get_docstring(tree) or "") if "__doc__" in source else ""
    out = [(1, shown_doc.split("Examples::", 1)[1])] if "Examples::" in shown_doc else []
    return out + [(n.lineno, n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))  # a comment blanked, its lines kept for the numbers


def page_texts(source: str, suffix: str) -> list[tuple[int, str]]:
    """A page's (or a .kv file's) lines without their comments."""
    if suffix == ".kv":
        text = re.sub(r"#.*", "", source)
    else:
        text = re.sub(r"<!--.*?-->|/\*.*?\*/", _blank, source, flags=re.S)
        text = re.sub(r"(^|[\s;{}()>])//.*", r"\1", text, flags=re.M)  # (not the // of a URL)
    return list(enumerate(text.splitlines(), 1))


def worded_outside_present(files: list[Path], root: Path = REPO) -> list[str]:
    found: dict[str, str] = {}  # "file:line" → its first Chinese text
    for path in files:
        rel = path.relative_to(root).as_posix()
        source = path.read_text(encoding="utf-8")
        texts = python_texts(source) if path.suffix == ".py" else page_texts(source, path.suffix)
        for line, text in sorted(texts, key=lambda t: t[0]):
            if CJK.search(text) and not any(rel == f and word in text for f, word in ALLOWED):
                found.setdefault(f"{rel}:{line}", text.strip()[:80])
    return [f"{where}: {text!r}" for where, text in found.items()]


def test_no_front_end_words_its_own_chinese() -> None:
    found = worded_outside_present(front_end_files())
    assert not found, "words outside table_app/present (take them from the word tables):\n" + "\n".join(found)


def test_the_scan_finds_words_and_passes_comments_and_docstrings(tmp_path: Path) -> None:
    """The scan itself: a string is found, its line named; a comment or a docstring is not."""
    py = tmp_path / "verb.py"
    py.write_text('"""好 a docstring."""\n# 好 a comment\nx = 1\nprint(f"赢家 winner {x}")\n', encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text("<!-- 好 -->\n<p>ok</p>\n<button>胡<small>Win</small></button>\n"
                    "<script>// 好\nconst u = 'http://x'; /* 好 */ say('连不上');\n</script>\n", encoding="utf-8")
    kv = tmp_path / "screen.kv"
    kv.write_text("# 好\nLabel:\n    text: '庄'\n", encoding="utf-8")
    found = [f.split(": ", 1)[0] for f in worded_outside_present([py, page, kv], tmp_path)]
    assert found == ["verb.py:4", "page.html:3", "page.html:5", "screen.kv:3"]


def test_the_allowed_are_few_and_still_there() -> None:
    """An allowance outlives its text only by mistake: each is still in its file."""
    assert len(ALLOWED) <= 5
    for (rel, word), why in ALLOWED.items():
        assert why and word in (REPO / rel).read_text(encoding="utf-8"), rel
