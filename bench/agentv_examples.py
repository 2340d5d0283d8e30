"""AgentV's own examples/ through `agentv validate` and `autoresearch validate` (not run in CI).

Extracts `examples/` of AgentV's repository at a tag from a local clone (a
bare git directory is fine) into a temporary git repository, replaces every
targets file with offline targets of the same names (a `cli` target that
answers with a canned text, whose `grader_target` is an openai target at
127.0.0.1), and prints how many eval files each tool accepts and which
files only `agentv validate` accepts, with our first problem for each.

    python bench/agentv_examples.py /path/to/agentv.git [--tag v4.42.4] [--agentv tests/agentv/node_modules/.bin/agentv]
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EVAL_NAME = re.compile(r"(\.eval\.ya?ml|(^|/)EVAL\.ya?ml|(^|/)eval\.ya?ml|evals\.json)$")
ANSWER = "import sys\nopen(sys.argv[2], 'w').write('canned answer for ' + sys.argv[1])\n"


def extract(repo: Path, tag: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(repo), "archive", tag, "examples"], check=True, capture_output=True).stdout
    tarfile.open(fileobj=io.BytesIO(archive)).extractall(into, filter="data")
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "examples"]):
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
    for path in [*files, *examples.rglob("targets.yaml")]:
        names.update(re.findall(r"^\s*(?:target|name|grader_target|use_target):\s*['\"]?([A-Za-z0-9_.-]+)", path.read_text(errors="replace"), re.M))
    return names


def offline_targets(names: set[str], answer: Path) -> str:
    grader = {"name": "fake_grader", "provider": "openai", "model": "${{ FAKE_MODEL }}", "api_key": "${{ FAKE_KEY }}", "base_url": "http://127.0.0.1:9/v1"}
    cli = [{"name": n, "provider": "cli", "command": f"python3 {answer} {{EVAL_ID}} {{OUTPUT_FILE}}", "grader_target": "fake_grader"} for n in sorted(names)]
    return yaml.safe_dump({"targets": [*cli, grader]}, sort_keys=False)


def replace_targets(root: Path, examples: Path, files: list[Path]) -> None:
    answer = root / "answer.py"
    answer.write_text(ANSWER)
    text = offline_targets(target_names(files, examples) - {"fake_grader"}, answer)
    (root / ".agentv").mkdir(exist_ok=True)
    for path in [*examples.rglob("targets.yaml"), root / ".agentv" / "targets.yaml"]:
        path.write_text(text)


def agentv_accepts(agentv: str, path: Path) -> bool:
    if path.suffix == ".json":
        return True  # `agentv validate` skips evals.json; `agentv eval` runs it
    done = subprocess.run([agentv, "validate", str(path)], capture_output=True, text=True, cwd=path.parent)
    return done.returncode == 0 and "Valid: 1" in done.stdout


def ours(path: Path) -> tuple[bool, str]:
    env = {**os.environ, "FAKE_MODEL": "fake-model", "FAKE_KEY": "fake-key"}
    done = subprocess.run([sys.executable, "-m", "optimizer", "validate", str(path)], capture_output=True, text=True, cwd=path.parent, env=env)
    first = next((line for line in done.stdout.splitlines() if "field" in line), done.stdout.strip()[-200:] + done.stderr.strip()[-200:])
    return done.returncode == 0, first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--tag", default="v4.42.4")
    parser.add_argument("--agentv", default=str(ROOT / "tests" / "agentv" / "node_modules" / ".bin" / "agentv"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agentv-examples-") as tmp:
        examples = extract(args.repo, args.tag, Path(tmp))
        files = eval_files(examples)
        replace_targets(Path(tmp), examples, files)
        accepted = [f for f in files if agentv_accepts(args.agentv, f)]
        refused = []
        for path in accepted:
            ok, first = ours(path)
            if not ok:
                refused.append((path.relative_to(examples), first))
        print(f"eval files: {len(files)}; agentv accepts {len(accepted)}; autoresearch accepts {len(accepted) - len(refused)} of those")
        for name, first in refused:
            print(f"  refused {name}: {first}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
