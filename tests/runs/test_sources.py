"""The parsed suite's `sources`: the files an eval file reads or runs besides itself, which the optimizer keeps
read-only to the LLM mutator; what a test hands the system under test (often the artifact) is not among them."""

from __future__ import annotations

from pathlib import Path

from autoresearch.runs.parse import check

EVAL = """\
target: canned
environment: file://recipe.yaml
extensions:
  - file://hooks.mjs:beforeAll
  - file://hooks.mjs:afterEach
prompts:
  - file://SKILL.md
tests: file://cases/*.yaml
assert:
  - type: script
    command: [python3, graders/grade.py, SKILL.md]
"""
CASES = """\
- id: a
  vars: {input: file://SKILL.md}
  assert:
    - type: script
      command: python3 ../graders/own.py --strict
"""


def test_the_sources_are_the_datasets_recipe_setup_extensions_and_graders_scripts_not_the_tests_input(tmp_path: Path):
    files = {
        "x.eval.yaml": EVAL,
        "recipe.yaml": "type: host\nworkdir: ../work\nsetup:\n  command: [python3, setup.py]\n",
        "setup.py": "",
        "hooks.mjs": "export function beforeAll() {}\nexport function afterEach() {}\n",
        "cases/one.yaml": CASES,
        "graders/grade.py": "",
        "graders/own.py": "",
        "SKILL.md": "a skill\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    suite, _ = check(tmp_path / "x.eval.yaml")
    assert suite is not None
    assert sorted(p.relative_to(tmp_path.resolve()).as_posix() for p in suite.sources) == [
        "cases/one.yaml",
        "graders/grade.py",
        "graders/own.py",
        "hooks.mjs",
        "recipe.yaml",
        "setup.py",
    ]
