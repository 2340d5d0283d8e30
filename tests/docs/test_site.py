"""The documentation site builds in strict mode, every page of docs/ is in it, and the README's links lead somewhere.

mkdocs.yml turns unlisted pages, unknown links and missing anchors into warnings, which `--strict` makes fatal:
so this test is what fails when a page is renamed, a heading a link points to changes, or a page is left out of
the nav.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
KEY_PAGES = [
    "getting-started",
    "configuration",
    "mutators",
    "evals",
    "keep-rules",
    "objectives",
    "parallel-candidates",
    "commands",
    "watching",
    "python",
    "unattended",
    "scale-out",
    "safety",
    "files",
    "logging",
    "exit-codes",
    "benchmarks",
    "development",
    "changelog",
]


def build(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(REPO / "mkdocs.yml"),
            "-d",
            str(site),
        ],
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_site_builds_strictly_with_every_page(tmp_path):
    site = tmp_path / "site"

    done = build(site)

    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    assert (site / "index.html").is_file()
    for page in KEY_PAGES:
        assert (site / page / "index.html").is_file(), f"docs/{page}.md is not in the site"
    for source in DOCS.glob("*.md"):
        built = site / "index.html" if source.stem == "index" else site / source.stem / "index.html"
        assert built.is_file(), f"{source.relative_to(REPO)} is not in the site"
    assert "tests/run" in (site / "development" / "index.html").read_text(encoding="utf-8")


def test_every_relative_link_of_the_readme_leads_to_a_file():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", readme) if "://" not in t]

    missing = [t for t in targets if t and not (REPO / t).exists()]

    assert targets and not missing, missing
