"""`autoresearch run` with `eval: {file: ...}`: an EVAL.yaml and an evals.json optimized end to end by the built-in runner."""

from __future__ import annotations

import json

import yaml

from tests.helpers.repos import cli, git, make_repo
from tests.helpers.scenario import MUTATOR, iterations

ECHO = "import sys\nopen(sys.argv[-1], 'w').write(open(sys.argv[1]).read())\n"
TARGETS = {
    "targets": [{"name": "echo", "provider": "cli", "command": "python3 ../tools/echo.py {FILES} {OUTPUT_FILE}"}]
}
EVAL_YAML = {
    "execution": {"target": "echo"},
    "tests": [
        {
            "id": "greets",
            "input": [{"role": "user", "content": [{"type": "file", "value": "../prompt.md"}]}],
            "files": ["../prompt.md"],
            "assertions": [{"type": "icontains", "value": "hello"}],
        },
        {
            "id": "polite",
            "input": "x",
            "files": ["../prompt.md"],
            "assertions": [{"type": "contains", "value": "please"}],
        },
    ],
}
EVALS_JSON = {
    "skill_name": "greeter",
    "evals": [
        {
            "id": 1,
            "prompt": "greet",
            "files": ["../prompt.md"],
            "assertions": [{"type": "icontains", "value": "hello"}],
        },
        {"id": 2, "prompt": "ask", "files": ["../prompt.md"], "assertions": [{"type": "contains", "value": "please"}]},
    ],
}


def repo_with(tmp_path, eval_name: str, eval_text: str):
    settings = {
        "experiment": "exp",
        "artifact": "prompt.md",
        "eval": {"file": f"evals/{eval_name}", "workers": 2},
        "mutator": {"provider": "command", "command": "python3 tools/mutate.py", "timeout_s": 30},
        "stop": {"max_cycles": 3, "max_convergence": 10},
    }
    plan = {
        "2": {"write": {"prompt.md": "Hello there.\n"}, "summary": "greet"},
        "3": {"write": {"prompt.md": "Hello, please sit.\n"}, "summary": "be polite"},
    }
    return make_repo(
        tmp_path / "r",
        {
            "prompt.md": "Hi.\n",
            f"evals/{eval_name}": eval_text,
            ".agentv/targets.yaml": yaml.safe_dump(TARGETS),
            "tools/echo.py": ECHO,
            "tools/mutate.py": MUTATOR,
            "plan.json": json.dumps(plan),
            "autoresearch.yaml": yaml.safe_dump(settings, sort_keys=False),
        },
    )


def check_optimized(repo):
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(line["score"], line["decision"]) for line in lines] == [(0.0, "keep"), (0.5, "keep"), (1.0, "keep")]
    assert (repo / "prompt.md").read_text() == "Hello, please sit.\n"
    assert "Hello, please sit." in git(repo, "show", "HEAD:prompt.md")
    run_dir = repo / ".autoresearch" / "runs" / "exp" / lines[-1]["run_dir"]
    assert (run_dir / "benchmark.json").is_file()


def test_eval_yaml_is_optimized_end_to_end(tmp_path):
    check_optimized(repo_with(tmp_path, "greeter.eval.yaml", yaml.safe_dump(EVAL_YAML)))


def test_evals_json_is_optimized_end_to_end(tmp_path):
    check_optimized(repo_with(tmp_path, "evals.json", json.dumps(EVALS_JSON)))
