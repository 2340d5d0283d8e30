"""Custom assertion types (`.agentv/assertions/*.ts|js|mts|mjs`), found and run as AgentV 4.42.4 finds and runs them.

AgentV runs a discovered type as `bun run FILE`. A `bun` on PATH that hands
the file to Node stands in for Bun here, for both tools alike; without one,
both score the type 0 (`spawn bun ENOENT`, tests/runs/compat/custom-assertions).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from autoresearch.runs.results import load_rows
from tests.helpers.repos import assert_one_line_error, cli
from tests.runs.evaltree import write_tree
from tests.runs.parity.harness import differences, fresh_copy, run_agentv, run_ours

FAKE_BUN = '#!/bin/sh\n[ "$1" = run ] && shift\nexec node "$@"\n'
WORD_COUNT = """\
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const words = (input.output ?? '').trim().split(/\\s+/).filter(Boolean).length;
const pass = words >= 3;
console.log(JSON.stringify({ score: pass ? 1 : words / 4, assertions: [{ text: `${words} words; config ${input.config}`, passed: pass }] }, null, 2));
"""
SCORE = "console.log(JSON.stringify({{ score: {score}, assertions: [{{ text: '{text}', passed: true }}] }}));\n"
ANSWERS = {"short": "Hi there", "long": "Hello there, I am a helpful assistant"}


def fake_bun(root: Path) -> dict[str, str]:
    """A `bin/bun` that runs the file with Node, and the PATH that finds it first."""
    bindir = root / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "bun").write_text(FAKE_BUN)
    (bindir / "bun").chmod(0o755)
    return {"PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}


def script(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


def rows(out: Path) -> dict[str, dict]:
    return {row["test_id"]: row for row in load_rows(out)}


def test_discovered_types_score_as_agentv_scores_them_with_bun(tmp_path, monkeypatch):
    """The nearest `.agentv/assertions/` wins over a parent's, `assertions` over `graders`, `graders` over
    `judges`; a file named like a built-in type never runs; the script gets `config: null`."""
    root = tmp_path / "case"
    tests = [
        {
            "id": "short",
            "input": "Say hi",
            "assertions": [{"type": "word-count", "limit": 3}, {"type": "nearest"}, {"type": "graded"}],
        },
        {
            "id": "long",
            "input": "Introduce yourself",
            "assertions": [
                {"type": "word_count", "weight": 3},
                {"type": "judged", "required": True},
                {"type": "contains", "value": "Hello"},
            ],
        },
    ]
    eval_file = write_tree(root, tests, ANSWERS)
    script(root / ".agentv" / "assertions", "word-count.mjs", WORD_COUNT)
    script(root / ".agentv" / "assertions", "nearest.js", SCORE.format(score=0.1, text="parent"))
    script(root / "evals" / ".agentv" / "assertions", "nearest.js", SCORE.format(score=0.7, text="nearest"))
    script(root / ".agentv" / "graders", "graded.js", SCORE.format(score=0.4, text="graders"))
    script(root / ".agentv" / "judges", "graded.js", SCORE.format(score=0.9, text="judges"))
    script(root / ".agentv" / "judges", "judged.mjs", SCORE.format(score=0.85, text="judges"))
    script(root / ".agentv" / "assertions", "contains.js", SCORE.format(score=0, text="never"))
    env = fake_bun(tmp_path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    copy = fresh_copy(root, tmp_path / "copy")
    files = [copy / "evals" / eval_file.name]
    theirs = run_agentv(copy, files, tmp_path / "agentv-out", env)
    ours = run_ours(copy, files, tmp_path / "our-out")
    assert len(theirs) == 2
    assert differences(theirs, ours) == []
    by_name = {s["name"]: s for row in ours.values() for s in row["scores"]}
    assert by_name["nearest"]["score"] == 0.7 and by_name["graded"]["score"] == 0.4
    assert by_name["word-count"]["assertions"][0]["text"].endswith("config null")


def test_without_bun_a_custom_type_scores_0_as_spawn_enoent(tmp_path):
    eval_file = write_tree(tmp_path, [{"id": "short", "input": "hi", "assertions": [{"type": "word-count"}]}], ANSWERS)
    script(tmp_path / ".agentv" / "assertions", "word-count.mjs", WORD_COUNT)
    bare = tmp_path / "bare-bin"  # git only: no bun, wherever this runs
    bare.mkdir()
    (bare / "git").symlink_to(shutil.which("git"))
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"), env={"PATH": str(bare)})
    assert done.returncode == 0, done.stderr
    [entry] = rows(tmp_path / "out")["short"]["scores"]
    assert (entry["type"], entry["score"]) == ("word-count", 0.0)
    assert entry["assertions"][0]["text"] == "Code evaluator failed: spawn bun ENOENT"


def test_a_type_neither_built_in_nor_discovered_is_one_line_naming_the_file_and_field(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [{"id": "t", "input": "hi", "assertions": [{"type": "contains", "value": "x"}, {"type": "wordcount"}]}],
        ANSWERS,
    )
    script(tmp_path / ".agentv" / "assertions", "word-count.ts", WORD_COUNT)
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"))
    assert_one_line_error(done, 30, str(eval_file), "assertions[1].type", "wordcount")
    assert not (tmp_path / "out").exists()


def test_a_type_that_names_a_path_finds_nothing_and_a_file_name_is_never_shell(tmp_path, monkeypatch):
    """`type: ../outside` does not reach a script beside `.agentv/`; a file named `$(touch pwned).mjs` is one argument."""
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "hi", "assertions": [{"type": "../outside"}]}], ANSWERS)
    script(tmp_path / ".agentv", "outside.js", SCORE.format(score=1, text="escaped"))
    script(tmp_path / ".agentv" / "assertions", "..outside.js", SCORE.format(score=1, text="dot file"))
    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 30 and "assertions[0].type" in done.stdout + done.stderr

    tests = [{"id": "short", "input": "hi", "assertions": [{"type": "$(touch pwned)"}]}]
    eval_file = write_tree(tmp_path, tests, ANSWERS)
    script(tmp_path / ".agentv" / "assertions", "$(touch pwned).mjs", SCORE.format(score=0.6, text="quoted"))
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"), env=fake_bun(tmp_path))
    assert done.returncode == 0, done.stderr
    assert rows(tmp_path / "out")["short"]["score"] == 0.6
    assert not list(tmp_path.rglob("pwned"))


def test_a_custom_type_that_hangs_crashes_or_prints_garbage_is_scored_and_the_run_ends(tmp_path):
    """A hang is stopped at `timeout_seconds` (AgentV would wait forever) with its children; a crash with stderr is
    a 0; garbage on stdout with exit 0 passes, as AgentV grades plain output by the exit code."""
    folder = tmp_path / ".agentv" / "assertions"
    script(
        folder,
        "hang.mjs",
        "import { execSync } from 'node:child_process';\nexecSync('sleep 300 & echo $! > child.pid; wait', { shell: '/bin/sh' });\n",
    )
    script(folder, "crash.js", "process.stderr.write('boom');\nprocess.exit(3);\n")
    script(folder, "garbage.js", "process.stdout.write(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x0a]));\n")
    tests = [
        {
            "id": "short",
            "input": "hi",
            "assertions": [{"type": "hang", "timeout_seconds": 1}, {"type": "crash"}, {"type": "garbage"}],
        }
    ]
    eval_file = write_tree(tmp_path, tests, ANSWERS)
    started = time.monotonic()
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"), env=fake_bun(tmp_path))
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 60
    entries = {s["name"]: s for s in rows(tmp_path / "out")["short"]["scores"]}
    assert entries["hang"]["score"] == 0 and "timed out after 1s" in entries["hang"]["assertions"][0]["text"]
    assert (
        entries["crash"]["score"] == 0
        and entries["crash"]["assertions"][0]["text"]
        == "Code evaluator failed: Code evaluator exited with code 3: boom"
    )
    assert entries["garbage"]["score"] == 1
    pid = int((tmp_path / "evals" / "child.pid").read_text())
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split(")")[1][:3]


def test_a_bad_timeout_on_a_custom_type_is_one_line(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [{"id": "t", "input": "hi", "assertions": [{"type": "word-count", "timeout_seconds": "soon"}]}],
        ANSWERS,
    )
    script(tmp_path / ".agentv" / "assertions", "word-count.js", WORD_COUNT)
    done = cli(tmp_path, "eval", str(eval_file))
    assert_one_line_error(done, 30, "assertions[0].timeout_seconds")


def test_a_composite_member_of_a_custom_type_is_left_out_with_a_note(tmp_path):
    composite = {
        "type": "composite",
        "aggregator": {"type": "weighted_average"},
        "assertions": [{"name": "w", "type": "word-count"}, {"name": "c", "type": "contains", "value": "Hi"}],
    }
    eval_file = write_tree(tmp_path, [{"id": "short", "input": "hi", "assertions": [composite]}], ANSWERS)
    script(tmp_path / ".agentv" / "assertions", "word-count.js", SCORE.format(score=0, text="never"))
    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "assertions[0].assertions[0].type" in done.stdout + done.stderr
