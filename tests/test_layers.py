"""The layering of docs/layers.md, checked by tools rather than by memory (STYLE 14).

import-linter's contracts (pyproject.toml) say which package may import which; imports inside functions,
which import-linter cannot tell from a cycle hidden on purpose, are allowed only as listed in
`[tool.autoresearch] function-level-imports`.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from fnmatch import fnmatchcase
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NAMESPACE = "autoresearch."
PACKAGES = ["pyapi", "optimizer", "mutators", "policies", "runs", "trajectory", "providers", "plumbing"]


def test_the_import_contracts_are_kept():
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run(
        [str(REPO / ".ci" / "lint-imports"), "--no-cache"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_imports_inside_functions_are_only_the_listed_ones():
    allowed = [_rule(entry) for entry in _config()["function-level-imports"]]
    unlisted = [
        f"{path.relative_to(REPO)}:{line}: {importer} -> {imported}"
        for path in _sources()
        for line, importer, imported in function_level_imports(path)
        if not any(fnmatchcase(importer, a) and fnmatchcase(imported, b) for a, b in allowed)
    ]
    assert not unlisted, "import these at the top of the module, or list them in pyproject.toml:\n" + "\n".join(
        unlisted
    )


def test_an_unlisted_import_inside_a_function_is_found(tmp_path):
    source = tmp_path / "pkg" / "example.py"
    source.parent.mkdir()
    (source.parent / "__init__.py").write_text("")
    (source.parent / "errors.py").write_text("")
    source.write_text("import os\n\ndef f():\n    import json\n    from pkg import errors, example\n    return os\n")
    found = function_level_imports(source, tmp_path)
    assert found == [(4, "pkg.example", "json"), (5, "pkg.example", "pkg.errors"), (5, "pkg.example", "pkg.example")]


def function_level_imports(path: Path, root: Path = REPO) -> list[tuple[int, str, str]]:
    """(line, importing module, imported module) for each import inside a function of `path`."""
    importer = _module_name(path.relative_to(root))
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((child.lineno, importer, name) for name in _imported(child, root))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _imported(node: ast.Import | ast.ImportFrom, root: Path) -> list[str]:
    if isinstance(node, ast.Import):
        return [_strip(alias.name) for alias in node.names]
    module = _strip(node.module or "")
    return [f"{module}.{a.name}" if _is_ours(root, f"{module}.{a.name}") else module for a in node.names]


def _is_ours(root: Path, module: str) -> bool:
    base = root.joinpath(*module.split("."))
    return (base / "__init__.py").is_file() or base.with_suffix(".py").is_file()


def _module_name(relative: Path) -> str:
    parts = list(relative.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _strip(name: str) -> str:
    return name.removeprefix(NAMESPACE)


def _rule(entry: str) -> tuple[str, str]:
    importer, _, imported = entry.partition(" -> ")
    return _strip(importer.strip()), _strip(imported.strip())


def _config() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["autoresearch"]


def _sources() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (REPO / package).rglob("*.py"))


def test_every_package_folder_is_in_the_installed_namespace():
    """pyproject.toml lists the packages a wheel carries (the `package-dir` mapping needs them by name): a new
    folder with an `__init__.py` that is missing there works in an editable install and is absent from a wheel."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        ".".join([name, *init.parent.relative_to(REPO / top).parts])
        for name, top in setuptools["package-dir"].items()
        for init in (REPO / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert folders == set(setuptools["packages"])
