"""The line that says a mutator's deletions of the experiment's own files were put back: a count and where the
list is, not every path on one console line (a `git clean -ffdx` each cycle deletes the whole results folder,
which grows by a run directory a cycle)."""

from __future__ import annotations

from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores

RUNS = ".autoresearch/runs/exp"


def test_each_cycle_puts_back_what_it_deleted_and_says_how_many_and_where_the_list_is(tmp_path):
    plan = {
        cycle: {"write": {"prompt.md": scores(a=cycle / 10)}, "run": ["rm -rf .autoresearch/runs"]} for cycle in (2, 3)
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    lines = iterations(repo)
    assert [(line["decision"], line.get("error_reason")) for line in lines] == [
        ("keep", None),
        *[("error", "out-of-scope")] * 2,
    ]
    told = [line for line in done.stderr.splitlines() if "of the experiment's own files" in line]
    assert len(told) == 2 and all(len(line) < 300 for line in told), told
    for line, record in zip(told, lines[1:]):
        listed = repo / RUNS / record["run_dir"] / "outside" / "put-back.txt"
        assert line.endswith(f"(listed in {listed})")
        # what is put back is what the mutator deleted: everything the experiment held then, no more
        back = listed.read_text().splitlines()
        assert f"put back {len(back)} of" in line
        assert str(repo / RUNS / lines[0]["run_dir"] / "index.jsonl") in back
        assert not any(record["run_dir"] in path for path in back)
    first, second = (int(line.split("put back ")[1].split()[0]) for line in told)
    assert second > first  # the folder grew by the first error cycle's run directory: all of it deleted again
