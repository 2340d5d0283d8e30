"""Every file an eval file reads or runs is read-only to the LLM mutator, inside a directory artifact too: its
datasets, its AgentV 5 environment recipe and the recipe's setup script, its extension modules (which Node runs
with the user's environment, unsandboxed), its graders' scripts and the targets file. A model that rewrote one
would grade itself, or run its own code at the next eval."""

from __future__ import annotations

import json
import sys

import yaml

from tests.helpers.fake_llm import text_reply, tool_reply
from tests.helpers.repos import cli, make_repo
from tests.mutators.llm_setup import openai_mutator
from tests.mutators.test_llm_e2e import KEY_ENV

EVAL = """\
target: canned
environment: file://recipe.yaml
extensions:
  - file://hooks.mjs:beforeAll
prompts:
  - "{{ input }}"
tests: file://cases.yaml
assert:
  - type: script
    command: [python3, grade.py]
"""
FILES = {
    "skill/prompt.md": "alphaword\n",
    "skill/s.eval.yaml": EVAL,
    "skill/recipe.yaml": "type: host\nworkdir: ../work\nsetup:\n  command: [python3, setup.py]\n",
    "skill/setup.py": "print('set up')\n",
    "skill/hooks.mjs": "export function beforeAll() {}\n",
    "skill/cases.yaml": "- id: a\n  vars: {input: go}\n",
    "skill/grade.py": (
        "import json, sys\njson.load(sys.stdin)\n"
        "print(json.dumps({'score': 1.0, 'assertions': [{'text': 'ok', 'passed': True}]}))\n"
    ),
    "tools/answer.py": "import sys\nopen(sys.argv[-1], 'w').write('an answer')\n",
}
GUARDED = [f for f in FILES if f not in ("skill/prompt.md", "tools/answer.py")] + ["skill/.agentv/targets.yaml"]


def test_the_files_an_eval_file_reads_or_runs_inside_the_artifact_are_read_only_for_the_model(tmp_path, fake_llm):
    repo = tmp_path / "r"
    targets = {
        "targets": [
            {
                "id": "canned",
                "provider": "cli",
                "config": {"command": f"{sys.executable} {repo}/tools/answer.py {{OUTPUT_FILE}}"},
            }
        ]
    }
    settings = {
        "experiment": "exp",
        "artifact": "skill",
        "eval": {"file": "skill/s.eval.yaml", "workers": 1},
        "mutator": openai_mutator(fake_llm),
        "stop": {"max_cycles": 2},
    }
    make_repo(
        repo,
        {
            **FILES,
            "skill/.agentv/targets.yaml": yaml.safe_dump(targets),
            "autoresearch.yaml": yaml.safe_dump(settings),
        },
    )
    writes = [("write_file", {"path": path, "content": "forged\n"}) for path in GUARDED[1:]]
    fake_llm.queue(
        tool_reply(
            "write_file",
            {"path": GUARDED[0], "content": "forged\n"},
            *writes,
            ("write_file", {"path": "skill/prompt.md", "content": "alphaword bravoword\n"}),
        ),
        text_reply("Grade myself"),
    )
    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode == 10, done.stderr  # no improvement: every write but the prompt's was refused
    calls = [
        json.loads(line)
        for line in next(repo.glob(".autoresearch/runs/exp/*c0002/mutator-tools.jsonl")).read_text().splitlines()
    ]
    assert len(calls) == len(GUARDED) + 1
    for path, call in zip(GUARDED, calls):
        assert call["error"] and "read-only" in call["refused"], (path, call)
    assert not calls[-1]["error"]
    assert all((repo / path).read_text() != "forged\n" for path in GUARDED)
