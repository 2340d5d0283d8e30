"""`gates.checks`: commands run on a candidate the rule and the gates would keep, before its commit, in a
throwaway checkout (and the kernel sandbox); the first that fails, or hangs, drops it with the check named."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

ARTIFACT = "prompts/p.md"
PLAN = {
    2: {"write": {ARTIFACT: scores(a=1, b=0)}, "summary": "raised a"},
    3: {"write": {ARTIFACT: scores(a=1, b=1)}, "summary": "raised b"},
}
NO_B = {"name": "no b", "command": f"! grep -q '^b 1' {ARTIFACT}"}  # fails on the candidate that raises b


def checked(tmp_path, checks: list[dict], plan: dict = PLAN, **config) -> Path:
    settings = {"gates": {"checks": checks}, **config}
    files = {"README.md": "tracked, and a check deletes it\n"}
    return scenario_repo(tmp_path / "repo", {ARTIFACT: scores(a=0, b=0)}, plan, config=settings, extra_files=files)


def run_dir(repo: Path, line: dict) -> Path:
    return repo / ".autoresearch" / "runs" / "exp" / line["run_dir"]


def test_a_failing_check_drops_the_candidate_named_and_costs_no_further_check(tmp_path):
    second = {"name": "after", "command": "echo ran"}
    repo = checked(tmp_path, [NO_B, second])
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [ln["decision"] for ln in lines] == ["keep", "keep", "drop"]
    dropped = lines[2]
    assert dropped["gate"] == "check: no b" and dropped["reason"].startswith("blocked by gate check: no b: exited 1")
    assert (run_dir(repo, dropped) / "check-1-no-b.stdout.log").exists()
    assert not (run_dir(repo, dropped) / "check-2-after.stdout.log").exists()  # the first failure ended them
    assert (run_dir(repo, lines[1]) / "check-2-after.stdout.log").read_text() == "ran\n"
    assert git(repo, "show", f"HEAD:{ARTIFACT}") == scores(a=1, b=0)
    assert git(repo, "status", "--porcelain") == ""


def test_a_check_that_hangs_is_ended_at_its_timeout_and_drops_the_candidate(tmp_path):
    marker = f"check-hangs-{tmp_path.name}"  # in the sleeper's command line: no other process has it
    hang = {"name": "hangs", "command": f"python3 -c 'import time; time.sleep(300)' {marker} & wait", "timeout_s": 1}
    plan = {2: PLAN[2]}
    repo = checked(tmp_path, [hang], plan)
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    assert (line["decision"], line["gate"]) == ("drop", "check: hangs")
    assert "timed out after 1s" in line["reason"]
    assert not _running(marker)  # the check's children ended with it


def test_what_a_check_writes_lands_in_its_throwaway_checkout_never_in_the_commit_or_the_users(tmp_path):
    vandal = {
        "name": "formatter",
        "command": f"echo 'c 1' >> {ARTIFACT} && rm README.md && touch made-by-check && test -e prompts/p.md",
        "sandbox": "off",  # unsandboxed: only the throwaway checkout stands between it and yours
    }
    repo = checked(tmp_path, [vandal])
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [ln["decision"] for ln in iterations(repo)] == ["keep", "keep", "keep"]
    assert git(repo, "show", f"HEAD:{ARTIFACT}") == scores(a=1, b=1)  # as the mutator wrote it
    assert (repo / "README.md").exists() and not (repo / "made-by-check").exists()
    assert git(repo, "status", "--porcelain") == "" and git(repo, "worktree", "list").count("\n") == 1


def test_in_the_sandbox_a_check_sees_no_results_directory_and_cannot_write_the_checkout(tmp_path):
    probe = 'test -z "$(ls -A "$AUTORESEARCH_REPO/.autoresearch")" && ! touch "$AUTORESEARCH_REPO/README.md"'
    repo = checked(tmp_path, [{"name": "probe", "command": probe}], {2: PLAN[2]})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert iterations(repo)[1]["decision"] == "keep"  # in the sandbox: the probe passes
    unsandboxed = checked(tmp_path / "off", [{"name": "probe", "command": probe, "sandbox": "off"}], {2: PLAN[2]})
    assert cli(unsandboxed, "run").returncode == 10
    assert iterations(unsandboxed)[1]["gate"] == "check: probe"


def test_a_bad_check_is_one_line_naming_the_field(tmp_path):
    repo = checked(tmp_path, [{"name": "x"}])
    assert_one_line_error(cli(repo, "validate"), 30, "gates.checks.0.command")
    repo2 = checked(tmp_path / "2", [{"command": "true", "sandbox": "maybe"}])
    assert_one_line_error(cli(repo2, "run"), 30, "gates.checks.0.sandbox")


def test_with_parallel_candidates_the_winner_is_checked(tmp_path):
    plan = {
        "2.0": {"write": {ARTIFACT: scores(a=1, b=0)}, "summary": "raised a"},
        "2.1": {"write": {ARTIFACT: scores(a=1, b=1)}, "summary": "raised both"},
    }
    repo = checked(tmp_path, [NO_B], plan, search={"candidates": 2, "overlap": False})
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    assert (line["decision"], line["gate"]) == ("drop", "check: no b")


def _running(needle: str) -> bool:
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and needle in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode():
                return True
        except OSError:
            continue
    return False
