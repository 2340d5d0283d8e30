"""The suite tests what users install: the built wheel, not this checkout (STYLE 16).

`tests/run` builds the sdist, builds the wheel from it and installs that wheel into .venv; an editable install
would read every file from the checkout and hide a file the wheel leaves out (the chart's assets once were).
"""

from __future__ import annotations

import sys
import tomllib
from importlib import resources
from pathlib import Path

import autoresearch

ROOT = Path(__file__).resolve().parents[1]


def package_folders() -> dict[str, Path]:
    """Each import package of ours and its folder in the checkout, as pyproject.toml maps them."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return {package: ROOT / folder for package, folder in setuptools["package-dir"].items()}


def checkout_files() -> list[tuple[str, str]]:
    """(import package, path inside it) of every file in our package folders."""
    return [
        (package, path.relative_to(folder).as_posix())
        for package, folder in package_folders().items()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    ]


def test_the_tests_import_the_installed_wheel_not_the_checkout():
    where = Path(autoresearch.__file__).resolve()
    assert where.parent != package_folders()["autoresearch"], f"{where} is the checkout's: run the suite with tests/run"


def test_every_file_of_the_checkouts_packages_is_in_the_installed_wheel():
    files = checkout_files()
    assert ("autoresearch.trajectory", "assets/page.js") in files  # the walk itself sees the assets
    missing = [f"{package}: {name}" for package, name in files if not resources.files(package).joinpath(name).is_file()]
    assert not missing, "the wheel leaves out " + ", ".join(missing)


def test_the_console_script_is_installed_beside_the_interpreter():
    assert (Path(sys.executable).parent / "autoresearch").is_file()
