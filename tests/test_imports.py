"""The project's import graph, read from the source: no cycles, and the walls between the packages hold."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("referee", "vision", "live", "art", "models", "webui", "benchmarks")
RUNTIME = ("referee", "vision", "live", "webui")
"""The packages a game at the table runs; the drawing (`art`), the training code (`models`), the
benchmarks and PyTorch stay out of them."""
OFF_THE_TABLE = ("art", "models", "benchmarks", "torch")
"""What the runtime never imports: the drawn deck and scenes, the training code, the benchmarks, PyTorch."""
VISION_MAY_USE = ("referee.cards", "referee.observation", "referee.wording")
"""The referee's plain values vision may name, and the one wording engine its statuses are worded
by; the rules' logic stays out of it."""
WEB = ("webui", "flask", "werkzeug", "tornado")
"""The web companion and the libraries it serves with: the live package runs without any of them."""


def _module_name(path: Path) -> str:
    """The dotted name of a source file under the project's root."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def _imported(name: str, path: Path) -> set[str]:
    """Every module a module imports anywhere in its code (function-local imports too), by dotted name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # a submodule imported by name
    return found


def _reaching(package: str, outside: tuple[str, ...]) -> set[str]:
    """Each import of a module of `package` that names one of the packages `outside`."""
    return {
        f"{name} imports {other}"
        for name, path in _sources().items()
        if name.split(".")[0] == package
        for other in _imported(name, path)
        if other.split(".")[0] in outside
    }


def _graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports."""
    sources = _sources()
    return {name: {other for other in _imported(name, path) if other in sources and other != name} for name, path in sources.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_walk_sees_the_imports_the_code_makes() -> None:
    graph = _graph()
    assert {"vision.recognize", "vision.classify", "vision.models"} <= set(graph)
    assert "vision.models" in graph["vision.classify"]
    assert "models.evaluate" in graph["models.quantize"] and "models.quantize" in graph["models.train"]
    assert "art.deck" in graph["art.scene"] and "art.scene" in graph["benchmarks.scenes"]


def test_a_cycle_is_found_when_two_modules_import_each_other() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_module_imports_itself_back_through_others() -> None:
    assert _cycles(_graph()) == []


@pytest.mark.parametrize("package", RUNTIME)
def test_the_runtime_imports_neither_the_drawing_the_training_code_nor_torch(package: str) -> None:
    sources = _sources()
    reached = {
        f"{name} imports {other}"
        for name, path in sources.items()
        if name.split(".")[0] == package
        for other in _imported(name, path)
        if other.split(".")[0] in OFF_THE_TABLE
    }
    assert reached == set()


def test_the_referee_is_standard_library_only() -> None:
    sources = _sources()
    outside = {
        f"{name} imports {other}"
        for name, path in sources.items()
        if name.split(".")[0] == "referee"
        for other in _imported(name, path)
        if other.split(".")[0] in ("numpy", "cv2", "flask", "onnxruntime", "vision", "live", "webui", "models")
    }
    assert outside == set()


def test_vision_knows_nothing_of_flask_the_web_page_or_the_rules_logic() -> None:
    sources = _sources()
    outside = {
        f"{name} imports {other}"
        for name, path in sources.items()
        if name.split(".")[0] == "vision"
        for other in _imported(name, path)
        if other.split(".")[0] in ("flask", "live", "webui")
        or other.split(".")[0] == "referee" and ".".join(other.split(".")[:2]) not in VISION_MAY_USE
    }
    assert outside == set()


def test_the_live_package_knows_nothing_of_the_web_companion_nor_flask() -> None:
    assert _reaching("live", WEB) == set()
