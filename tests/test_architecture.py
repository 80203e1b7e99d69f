"""The product code's shape (issue 25, docs/architecture.md): the layers import downward only,
with no import circle; the size limits (no module over 500 lines, no function over 80); and
``Any`` kept rare (at most 150 lines mention it).

The product code is ``engine``, ``table_app``, ``hardware`` and ``firmware_bridge``; the
MicroPython firmware (any ``firmware/`` folder) is left out, it has its own constraints.
A function's length runs from its ``def`` line to its last line, nested functions included.
Imports are read from the source, every one of them: at module level, inside functions, and
under ``if TYPE_CHECKING:`` (a circle closed only for the type checker is still a circle in the
design); importing ``a.b.c`` counts ``a.b``'s ``__init__`` too, since it runs.

What each package may import is read from the table in docs/architecture.md ("What each may
import"), and checked exactly: every package has a row, every row a package, and no module
imports a package its row does not name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRODUCT = ("engine", "table_app", "parlour", "hardware", "firmware_bridge")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def product_modules() -> list[Path]:
    return sorted(p for package in PRODUCT for p in (REPO / package).rglob("*.py")
                  if "firmware" not in p.relative_to(REPO).parts[1:-1])


def functions(tree: ast.AST) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method with its qualified name (``Class.method``, ``outer.inner``)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield prefix + child.name, child
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    return walk(tree, "")


def long_modules() -> list[str]:
    out = []
    for p in product_modules():
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_MODULE_LINES:
            out.append(f"{p.relative_to(REPO)}: {n} lines")
    return out


def long_functions() -> list[str]:
    out = []
    for p in product_modules():
        tree = ast.parse(p.read_text(encoding="utf-8"), str(p))
        for name, fn in functions(tree):
            n = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if n > MAX_FUNCTION_LINES:
                out.append(f"{p.relative_to(REPO)}:{fn.lineno} {name}: {n} lines")
    return out


def test_the_product_code_is_found() -> None:
    names = {str(p.relative_to(REPO)) for p in product_modules()}
    assert {"engine/table.py", "table_app/core/service.py", "firmware_bridge/protocol.py"} <= names
    assert not any("/firmware/" in n for n in names)  # the MicroPython firmware is left out


def test_no_module_over_500_lines() -> None:
    offenders = long_modules()
    assert not offenders, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(offenders)


def test_no_function_over_80_lines() -> None:
    offenders = long_functions()
    assert not offenders, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(offenders)


# --- imports ---------------------------------------------------------------------------------

MAX_ANY_LINES = 150
UI_LAUNCHERS = ("table_app.cli.run", "table_app.bench.ui_bare", "table_app.bench.evening_app",
                "table_app.bench.evening_script")
"""What may import ``table_app.ui`` besides the UI itself: the ``run`` command that launches it,
the benchmark's bare Kivy window (the yardstick the app's first frame is measured against) and
the benchmark's scripted evening on the app (its memory after a whole evening)."""


def module_name(p: Path, root: Path = REPO) -> str:
    parts = list(p.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(p: Path, root: Path = REPO) -> set[str]:
    """Every module ``p`` imports (relative imports resolved), wherever the import stands, with
    the packages above each (their ``__init__`` runs first)."""
    me = module_name(p, root)
    package = me if p.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"), str(p))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return found | {".".join(m.split(".")[:i]) for m in found for i in range(1, m.count(".") + 1)}


def import_graph() -> dict[str, set[str]]:
    """Each product module → the product modules it imports."""
    modules = {module_name(p): p for p in product_modules()}
    # (a module's own packages are left out: their ``__init__`` running first is Python's order,
    # not a dependency, and an ``__init__`` that re-exports its modules is no circle)
    return {m: {d for d in imports(p) if d in modules and d != m and not m.startswith(d + ".")}
            for m, p in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def importers(graph: dict[str, set[str]], prefix: str) -> dict[str, list[str]]:
    """The modules outside ``prefix`` that import something under it, and what."""
    return {m: sorted(d for d in deps if d == prefix or d.startswith(prefix + "."))
            for m, deps in graph.items()
            if not (m == prefix or m.startswith(prefix + ".")) and any(d == prefix or d.startswith(prefix + ".")
                                                                      for d in deps)}


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" → ".join(c) for c in found)


def test_the_circle_check_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_import_counts_also_under_type_checking_and_inside_functions(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "mod.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.tiles import Tile\n"
                      "def f():\n    from table_app.core import service\n", encoding="utf-8")
    found = imports(module, root=tmp_path)
    assert {"engine.tiles", "engine", "table_app.core.service", "table_app.core", "table_app"} <= found


# --- the table of docs/architecture.md ------------------------------------------------------

ARCHITECTURE = REPO / "docs" / "architecture.md"
_ROW = re.compile(r"^\| `([^`]+)` \| (.*?) \| .* \|$")


def unit(module: str) -> str:
    """The package a module belongs to, as docs/architecture.md names it: ``engine/``,
    ``table_app/core/``, ``table_app/compose.py``, ``parlour/`` (``table_app``'s own empty
    ``__init__`` is ``table_app/``)."""
    parts = module.split(".")
    if parts[0] != "table_app" or len(parts) == 1:
        return parts[0] + "/"
    is_package = (REPO / "table_app" / parts[1]).is_dir()
    return f"table_app/{parts[1]}/" if is_package else f"table_app/{parts[1]}.py"


def allowed_imports() -> dict[str, set[str] | None]:
    """docs/architecture.md's "What each may import": each package → the packages it may import
    (None: everything)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text[text.index("## What each may import"):]
    section = section[: section.index("\n## ", 4)]
    rows: dict[str, set[str] | None] = {}
    for line in section.splitlines():
        if m := _ROW.match(line):
            names = set(re.findall(r"`([^`]+)`", m.group(2)))
            rows[m.group(1)] = None if m.group(2).startswith("everything") else names
    return rows


def test_the_map_names_every_package_and_only_packages() -> None:
    rows = allowed_imports()
    units = {unit(m) for m in import_graph()} - {"table_app/"}
    assert set(rows) == units, (f"in the map, not the code: {set(rows) - units}; "
                                f"in the code, not the map: {units - set(rows)}")


def map_violations(graph: dict[str, set[str]], rows: dict[str, set[str] | None]) -> list[str]:
    """Each import of ``graph`` that its package's row in ``rows`` does not allow."""
    wrong = []
    for m, deps in sorted(graph.items()):
        mine = unit(m)
        allowed = rows.get(mine, set())
        for d in sorted(deps):
            theirs = unit(d)
            if theirs not in (mine, "table_app/") and allowed is not None and theirs not in allowed:
                wrong.append(f"{m} imports {d} ({theirs} is not in {mine}'s row)")
    return wrong


def test_each_package_imports_only_what_the_map_allows() -> None:
    wrong = map_violations(import_graph(), allowed_imports())
    assert not wrong, "imports the map (docs/architecture.md) does not allow:\n" + "\n".join(wrong)


def test_the_map_check_finds_an_import_it_does_not_allow() -> None:
    rows = allowed_imports()
    assert rows["engine/"] == set() and rows["table_app/cli/"] is None
    graph = {"table_app.web.routes": {"table_app.ui.app", "table_app.present.words"},
             "engine.tiles": {"table_app.core.service"}, "table_app.cli.run": {"table_app.ui.app"}}
    assert map_violations(graph, rows) == [
        "engine.tiles imports table_app.core.service (table_app/core/ is not in engine/'s row)",
        "table_app.web.routes imports table_app.ui.app (table_app/ui/ is not in table_app/web/'s row)"]


def test_only_the_ui_and_its_launchers_import_the_ui() -> None:
    others = {m: d for m, d in importers(import_graph(), "table_app.ui").items() if m not in UI_LAUNCHERS}
    assert not others, f"modules outside table_app/ui that import it: {others}"


def test_the_layers_import_downward() -> None:
    """The engine imports nothing of the rest; hardware (devices) nothing of table_app; the
    presentation layer no Kivy, no network, no journal: it only words the engine's state."""
    graph = import_graph()
    for package in ("table_app", "hardware", "firmware_bridge"):
        assert not importers(graph, package).keys() & {m for m in graph if m.startswith("engine")}
    assert not {m for m in importers(graph, "table_app") if m.startswith(("hardware", "firmware_bridge"))}
    for p in product_modules():
        name = module_name(p)
        if name.startswith("table_app.present"):
            bad = {d for d in imports(p) if d.split(".")[0] in ("kivy", "paho", "sqlite3", "socket", "http")
                   or d.startswith(("table_app.core.service", "table_app.journal.journal", "table_app.ui",
                                    "table_app.web", "table_app.mqtt"))}
            assert not bad, f"{name} imports {sorted(bad)}"


def any_lines() -> list[str]:
    out = []
    for p in product_modules():
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if any(word == "Any" for word in re.findall(r"\w+", code)):
                out.append(f"{p.relative_to(REPO)}:{n}")
    return out


def test_any_is_rare() -> None:
    """The public state, the notices, the views and the events are typed; ``Any`` is left for
    Kivy's untyped widgets and the few JSON readers that check what they read."""
    found = any_lines()
    assert len(found) <= MAX_ANY_LINES, f"{len(found)} lines mention Any (at most {MAX_ANY_LINES})"


if __name__ == "__main__":  # python tests/test_architecture.py: the offenders now
    print("\n".join(long_modules() + long_functions()) or "none")
    print(f"{len(any_lines())} lines mention Any; circles: {circles(import_graph())}")
