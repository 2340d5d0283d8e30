"""AgentV's own examples/ through `agentv validate` and `autoresearch validate` (not run in CI).

Extracts `examples/` of AgentV's repository at a tag from a local clone (a
bare git directory is fine) into a temporary git repository, replaces every
targets file with offline targets of the same names (a `cli` target that
answers with a canned text, whose `grader_target` is an openai target at
127.0.0.1), and prints how many eval files each tool accepts and which
files only `agentv validate` accepts, with our first problem for each. With
`--eval`, the files both accept also run through `agentv eval` and the
built-in runner, against a grader server whose reply is fixed (score 0.75,
every rubric check satisfied), and the tests whose score or
execution_status differ are counted and listed.

    python bench/agentv_examples.py /path/to/agentv.git [--tag v4.42.4] [--eval]

A 5.x tag (`--tag v5.3.1-next.1`) runs AgentV 5's examples through the 5.x CLI
built in tests/agentv5, with the offline targets written in 5.x's shape (`id`,
settings under `config`, `{{ env.NAME }}`).

`--docker-stand-in` puts tests/helpers/docker_stand_in.py on PATH as `docker`
for both tools (no Docker engine runs where this bench runs): it is NOT an
engine. It logs each docker command and runs a container's command on the
host, so the docker `environment` example runs through both tools' docker
steps (version, image inspect or pull, run or create/start/exec/rm) with the
engine playing "up"; what an image would hold is not checked.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import stat
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EVAL_NAME = re.compile(r"(\.eval\.ya?ml|(^|/)eval\.ya?ml|evals\.json)$", re.IGNORECASE)  # `x.EVAL.yaml` too
ANSWER = "import sys\nopen(sys.argv[2], 'w').write('canned answer for ' + sys.argv[1])\n"


def extract(repo: Path, tag: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", tag, "examples"], check=True, capture_output=True
    ).stdout
    tarfile.open(fileobj=io.BytesIO(archive)).extractall(into, filter="data")
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "examples"],
    ):
        subprocess.run(["git", "-C", str(into), *args], check=True, capture_output=True)
    return into / "examples"


def eval_files(examples: Path) -> list[Path]:
    found = []
    for path in sorted(examples.rglob("*")):
        if not path.is_file() or "node_modules" in path.parts or not EVAL_NAME.search(str(path)):
            continue
        found.append(path)
    return found


def target_names(files: list[Path], examples: Path) -> set[str]:
    names = {"default", "llm", "grader"}
    sources = [*files, *examples.rglob("targets.yaml"), *examples.rglob("*.jsonl"), *examples.rglob("*.cases.yaml")]
    for path in sources:
        text = path.read_text(errors="replace")
        names.update(
            re.findall(
                r"^\s*-?\s*(?:target|name|id|grader_target|use_target|extends):\s*['\"]?([A-Za-z0-9_.-]+)", text, re.M
            )
        )
        names.update(re.findall(r'"(?:target|grader_target)":\s*"([A-Za-z0-9_.-]+)"', text))
    return names


def offline_targets(names: set[str], answer: Path, grader_url: str, five: bool = False) -> str:
    grader = {
        "name": "fake_grader",
        "provider": "openai",
        "model": "{{ env.FAKE_MODEL }}" if five else "${{ FAKE_MODEL }}",
        "api_key": "{{ env.FAKE_KEY }}" if five else "${{ FAKE_KEY }}",
        "base_url": grader_url,
        "api_format": "chat",
    }
    cli = [
        {
            "name": n,
            "provider": "cli",
            "command": f"python3 {answer} {{EVAL_ID}} {{OUTPUT_FILE}}",
            "grader_target": "fake_grader",
        }
        for n in sorted(names)
    ]
    targets = [*cli, grader]
    if five:  # AgentV 5's shape: `id`, the provider's settings under `config`
        targets = [
            {
                "id": t["name"],
                "provider": t["provider"],
                "config": {k: v for k, v in t.items() if k not in ("name", "provider")},
            }
            for t in targets
        ]
    return yaml.safe_dump({"targets": targets}, sort_keys=False)


def replace_targets(root: Path, examples: Path, files: list[Path], grader_url: str, five: bool = False) -> None:
    answer = root / "answer.py"
    answer.write_text(ANSWER)
    text = offline_targets(target_names(files, examples) - {"fake_grader"}, answer, grader_url, five)
    (root / ".agentv").mkdir(exist_ok=True)
    for path in [*examples.rglob("targets.yaml"), root / ".agentv" / "targets.yaml"]:
        path.write_text(text)


def agentv_accepts(agentv: str, path: Path, five: bool = False) -> bool:
    if path.suffix == ".json":  # `agentv validate` skips evals.json; `agentv eval` 4.42.4 runs it, 5.x refuses it
        return not five
    done = subprocess.run([agentv, "validate", str(path)], capture_output=True, text=True, cwd=path.parent)
    return done.returncode == 0 and "Valid: 1" in done.stdout


ENV = {"FAKE_MODEL": "fake-model", "FAKE_KEY": "fake-key"}


def ours(path: Path) -> tuple[bool, str]:
    env = {**os.environ, **ENV}
    done = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "validate", str(path)],
        capture_output=True,
        text=True,
        cwd=path.parent,
        env=env,
    )
    first = next(
        (line for line in done.stdout.splitlines() if "field" in line),
        done.stdout.strip()[-200:] + done.stderr.strip()[-200:],
    )
    return done.returncode == 0, first


def grade(request) -> object:
    """The fixed grader reply: score 0.75 for a free-form grader, every rubric check the prompt names satisfied."""
    from tests.helpers.fake_llm import text_reply

    text = json.dumps(request.body)
    ids = sorted(set(re.findall(r"(rubric-\d+|assertion-\d+)", text)))
    checks = [{"id": i, "satisfied": True, "reasoning": "fixed"} for i in ids]
    return text_reply(
        json.dumps(
            {
                "score": 0.75,
                "assertions": [{"text": "fixed", "passed": True}],
                "reasoning": "fixed",
                "overall_reasoning": "fixed",
                "checks": checks,
            }
        )
    )


def compare_scores(root: Path, examples: Path, both: list[Path], agentv: Path, five: bool) -> None:
    from tests.runs.parity.harness import differences, run_agentv, run_ours

    os.environ.update(ENV)
    if not five:
        theirs = run_agentv(root, both, root / "agentv-out", ENV, binary=agentv)
    else:  # `agentv eval` 5.x refuses at run time files its `validate` passes, and then runs none: one file a call
        theirs = {}
        for index, path in enumerate(both):
            try:
                theirs.update(run_agentv(root, [path], root / "agentv-out" / str(index), ENV, binary=agentv))
            except AssertionError as exc:
                print(f"  agentv eval refused {path.relative_to(examples)}: {str(exc).strip().splitlines()[-1][:200]}")
    ours_rows = {}
    for path in both:
        try:
            ours_rows.update(run_ours(root, [path], root / "our-out" / path.parent.name))
        except Exception as exc:  # noqa: BLE001 - a bench reports every failure and goes on
            print(f"  ours failed on {path.relative_to(examples)}: {exc}")
    found = differences(theirs, ours_rows)
    print(
        f"tests: agentv ran {len(theirs)}, autoresearch ran {len(ours_rows)}; {len(found)} differ (score or execution_status)"
    )
    for line in found:
        print(f"  {line[:300]}")


def docker_stand_in(tmp: Path) -> None:
    """tests/helpers/docker_stand_in.py as `docker` on PATH, for this process and both tools, the engine "up"."""
    bin_dir, state = tmp / "docker-bin", tmp / "docker-state"
    bin_dir.mkdir()
    state.mkdir()
    docker = bin_dir / "docker"
    docker.write_text(f'#!/bin/sh\nexec {sys.executable} {ROOT / "tests" / "helpers" / "docker_stand_in.py"} "$@"\n')
    docker.chmod(docker.stat().st_mode | stat.S_IXUSR)
    os.environ["PATH"] = f"{bin_dir}:{os.environ['PATH']}"
    ENV.update({"DOCKER_STUB_LOG": str(tmp / "docker.log"), "DOCKER_STUB_MODE": "up", "DOCKER_STUB_STATE": str(state)})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--tag", default="v4.42.4")
    parser.add_argument("--agentv", help="the agentv CLI (default: tests/agentv's, or tests/agentv5's for a 5.x tag)")
    parser.add_argument("--eval", action="store_true", help="also run the files both accept and compare their scores")
    parser.add_argument(
        "--only", type=re.compile, help="only the eval files whose path under examples/ matches this regex"
    )
    parser.add_argument(
        "--docker-stand-in",
        action="store_true",
        help="a stand-in `docker` on PATH for both tools (logs commands, runs them on the host; not an engine)",
    )
    args = parser.parse_args()
    five = args.tag.startswith("v5")
    args.agentv = args.agentv or str(
        ROOT / "tests" / ("agentv5" if five else "agentv") / "node_modules" / ".bin" / "agentv"
    )
    sys.path.insert(0, str(ROOT))
    from tests.helpers.fake_llm import FakeLLM

    with tempfile.TemporaryDirectory(prefix="agentv-examples-") as tmp, FakeLLM() as llm:
        llm.handler = grade
        examples = extract(args.repo, args.tag, Path(tmp))
        if args.docker_stand_in:
            docker_stand_in(Path(tmp))
        files = [f for f in eval_files(examples) if not args.only or args.only.search(str(f.relative_to(examples)))]
        replace_targets(Path(tmp), examples, files, llm.base_url("openai"), five)
        accepted = [f for f in files if agentv_accepts(args.agentv, f, five)]
        refused = []
        for path in accepted:
            ok, first = ours(path)
            if not ok:
                refused.append((path.relative_to(examples), first))
        print(
            f"eval files: {len(files)}; agentv accepts {len(accepted)}; autoresearch accepts {len(accepted) - len(refused)} of those"
        )
        for name, first in refused:
            print(f"  refused {name}: {first}")
        if args.eval:
            refused_names = {name for name, _ in refused}
            both = [f for f in accepted if f.relative_to(examples) not in refused_names]
            compare_scores(Path(tmp), examples, both, Path(args.agentv), five)
    return 0


if __name__ == "__main__":
    sys.exit(main())
