"""`finalize`: a review branch with the experiment's change to the artifact on top of where it started, never
touching the user's branch, index or files, and a pull request's description (`report --markdown`) with the
chart beside it."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, copy_of, git, made_once
from tests.helpers.scenario import scenario_repo, scores

ARTIFACT = "prompts/p.md"
SECRET = "sk-review-3f9a7c1e5b"


def night(tmp_path, *, worktree: bool = False, artifact: str = ARTIFACT):
    """A run of five cycles: three KEEPs (one a hostile summary), one DROP, one error."""
    plan = {
        2: {"write": {artifact: scores(a=1, b=0, c=0)}, "summary": "raised a"},
        3: {"write": {artifact: scores(a=0, b=0, c=0)}, "summary": "lowered a"},
        4: {"write": {artifact: scores(a=1, b=1, c=0)}, "summary": f"b | <img src=x onerror=alert(1)> {SECRET}"},
        5: {"exit": 3},
        6: {"write": {artifact: scores(a=1, b=1, c=1)}, "summary": "raised c"},
    }
    config = {"worktree": True} if worktree else None
    repo = scenario_repo(tmp_path / "repo", {artifact: scores(a=0, b=0, c=0)}, plan, config=config)
    (repo / "notes.txt").write_text("the user's own edit\n")  # untracked, and left alone
    done = cli(repo, "run", env={"REVIEW_API_KEY": SECRET})
    assert done.returncode == 0, done.stderr
    return repo


# the module's tests on night()'s run share it: one worker makes it once, and each test copies it
pytestmark = pytest.mark.xdist_group("finalize")


the_night = made_once(night)


def snapshot(repo):
    return git(repo, "rev-parse", "HEAD"), git(repo, "symbolic-ref", "HEAD"), git(repo, "status", "--porcelain")


def test_the_net_change_is_one_commit_on_the_start_and_nothing_of_the_users_moves(tmp_path, the_night):
    repo = copy_of(the_night, tmp_path / "repo")
    start = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    (repo / "README").write_text("staged by the user\n")
    git(repo, "add", "README")
    before = snapshot(repo)
    done = cli(repo, "finalize", "--json", env={"REVIEW_API_KEY": SECRET})
    assert done.returncode == 0, done.stderr
    made = json.loads(done.stdout)
    assert made["branch"] == "autoresearch/exp-review" and made["base"] == start and len(made["commits"]) == 1
    assert snapshot(repo) == before  # HEAD, the branch, the index and the files as they were
    review = made["commits"][0]
    assert git(repo, "rev-parse", f"{review}^").strip() == start
    assert git(repo, "diff", "--name-only", start, review).split() == [ARTIFACT]
    assert git(repo, "show", f"{review}:{ARTIFACT}") == scores(a=1, b=1, c=1)
    message = git(repo, "log", "-1", "--format=%B", review)
    assert message.startswith("autoresearch: prompts/p.md 0.0000 → 1.0000")
    assert "raised a" in message and "raised c" in message and SECRET not in message
    text = (repo / ".autoresearch/runs/exp/review/description.md").read_text()
    assert (repo / ".autoresearch/runs/exp/review/chart.png").read_bytes().startswith(b"\x89PNG")
    assert "Score **0.0000 → 1.0000**" in text and "3 kept, 1 dropped, 1 error." in text
    assert "3 better, 0 worse, 0 unchanged." in text
    assert "| 2 | 0.3333 | raised a |" in text and "| 3 | drop | 0.0000 |" in text
    assert "| 5 | error | – | mutator-failed: mutator exited 3" in text
    assert "b \\| &lt;img src=x onerror=alert(1)&gt; ***" in text and SECRET not in text
    assert cli(repo, "report", "--markdown").stdout == text


def test_a_summary_pings_no_one_and_closes_no_issue(tmp_path):
    """A mutation's summary is written by a model that read who knows what: in the pull request's description,
    `@name` must not notify anyone nor `fixes #1` close an issue on merge."""
    plan = {2: {"write": {ARTIFACT: scores(a=1)}, "summary": "@octocat fixes #1 and @org/team"}}
    repo = scenario_repo(tmp_path / "repo", {ARTIFACT: scores(a=0)}, plan)
    assert cli(repo, "run").returncode == 0
    text = cli(repo, "report", "--markdown").stdout
    # disarmed twice: in the summary itself (a zero-width space before `#1`), then in the Markdown cell
    assert "| @&#8203;octocat fixes \u200b#&#8203;1 and @&#8203;org/team |" in text
    assert "@octocat" not in text and "#1" not in text


def test_a_test_ids_terminal_sequences_are_shown_not_obeyed(tmp_path):
    """The per-test table's ids are the eval's text, and `report --markdown` prints to the terminal: an escape
    sequence in one (a window title, a clear screen) reached it raw. Each control character is shown as `\\xNN`."""
    hostile = "t\x1b]0;x\x07\x1b[2J"
    plan = {2: {"write": {ARTIFACT: scores(**{hostile: 1})}, "summary": "raised it"}}
    repo = scenario_repo(tmp_path / "repo", {ARTIFACT: scores(**{hostile: 0})}, plan)
    assert cli(repo, "run").returncode == 0
    text = cli(repo, "report", "--markdown").stdout
    assert "| t\\x1b]0;x\\x07\\x1b[2J |" in text
    assert "\x1b" not in text and "\x07" not in text


def test_the_series_replays_each_keep_with_its_message_and_author(tmp_path, the_night):
    repo = copy_of(the_night, tmp_path / "repo")
    start = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    done = cli(repo, "finalize", "--series", "--branch", "review/series", "--json")
    assert done.returncode == 0, done.stderr
    made = json.loads(done.stdout)
    kept = git(repo, "log", "--reverse", "--format=%an|%B%x00", f"{start}..main").split("\x00")[:-1]
    replayed = git(repo, "log", "--reverse", "--format=%an|%B%x00", f"{start}..review/series").split("\x00")[:-1]
    assert len(made["commits"]) == 3 and replayed == kept
    assert git(repo, "rev-parse", "review/series^{tree}") == git(repo, "rev-parse", "main^{tree}")


def test_the_net_change_is_signed_by_the_author_and_committer_git_would_sign_with(tmp_path, the_night):
    """The author is git's author, not the committer, and its date git's (finalize signed both with the
    committer's identity, now; and libgit2's default one read user.* alone: author.*, committer.*, EMAIL and
    the system's names went unread)."""
    repo = copy_of(the_night, tmp_path / "repo")
    author = {"GIT_AUTHOR_NAME": "Ann", "GIT_AUTHOR_EMAIL": "ann@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0130"}
    committer = {"GIT_COMMITTER_NAME": "Cid", "GIT_COMMITTER_EMAIL": "cid@example.com"}
    done = cli(repo, "finalize", "--json", env={**author, **committer})
    assert done.returncode == 0, done.stderr
    review = json.loads(done.stdout)["commits"][0]
    signed = git(repo, "log", "-1", "--format=%an <%ae> %ad|%cn <%ce>", "--date=raw", review)
    assert signed.strip() == "Ann <ann@example.com> 1700000000 +0130|Cid <cid@example.com>"


def test_a_directory_artifact_in_a_worktree_night(tmp_path):
    artifact = "skill"
    repo = night(tmp_path, worktree=True, artifact=f"{artifact}/rules.md")
    before = snapshot(repo)
    done = cli(repo, "finalize")
    assert done.returncode == 0, done.stderr
    assert "review branch autoresearch/exp-review: 1 commit on" in done.stdout
    assert "gh pr create --head autoresearch/exp-review" in done.stdout
    assert snapshot(repo) == before
    start = git(repo, "rev-parse", "main").strip()  # the night ran on its own branch: main never moved
    assert git(repo, "diff", "--name-only", start, "autoresearch/exp-review").split() == [f"{artifact}/rules.md"]
    assert git(repo, "rev-parse", "autoresearch/exp-review^{tree}") == git(repo, "rev-parse", "autoresearch/exp^{tree}")


def test_onto_another_commit_keeps_its_other_changes_and_refuses_one_to_the_artifact(tmp_path, the_night):
    repo = copy_of(the_night, tmp_path / "repo")
    start = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    git(repo, "branch", "upstream", start)
    git(repo, "worktree", "add", "-q", str(tmp_path / "up"), "upstream")
    (tmp_path / "up" / "CONTRIBUTING").write_text("upstream moved on\n")
    git(tmp_path / "up", "add", "CONTRIBUTING")
    git(tmp_path / "up", "commit", "-q", "-m", "upstream: contributing")
    done = cli(repo, "finalize", "--onto", "upstream", "--json")
    assert done.returncode == 0, done.stderr
    review = json.loads(done.stdout)["commits"][0]
    assert git(repo, "rev-parse", f"{review}^").strip() == git(repo, "rev-parse", "upstream").strip()
    assert git(repo, "diff", "--name-only", "upstream", review).split() == [ARTIFACT]

    (tmp_path / "up" / ARTIFACT).write_text("a 0.5\n")
    git(tmp_path / "up", "commit", "-q", "-am", "upstream: edits the prompt")
    tip = git(repo, "rev-parse", "autoresearch/exp-review")
    refused = cli(repo, "finalize", "--onto", "upstream", "--force")
    assert_one_line_error(refused, 30, "prompts/p.md changed on 'upstream' since the experiment began")
    assert git(repo, "rev-parse", "autoresearch/exp-review") == tip


def test_onto_a_commit_holding_the_first_keeps_reviews_the_rest(tmp_path, the_night):
    """The first KEEPs already merged upstream (a fast-forward to one of them): the review is what is left,
    not refused as undoing a change; onto the experiment's tip itself, there is nothing left to review."""
    repo = copy_of(the_night, tmp_path / "repo")
    done = cli(repo, "finalize", "--onto", "main~1", "--json")
    assert done.returncode == 0, done.stderr
    review = json.loads(done.stdout)["commits"][0]
    assert git(repo, "rev-parse", f"{review}^") == git(repo, "rev-parse", "main~1")
    assert git(repo, "diff", "--name-only", "main~1", review).split() == [ARTIFACT]
    assert git(repo, "show", f"{review}:{ARTIFACT}") == scores(a=1, b=1, c=1)
    assert "raised c" in git(repo, "log", "-1", "--format=%B", review) and "raised a" not in git(
        repo, "log", "-1", "--format=%B", review
    )
    series = cli(repo, "finalize", "--onto", "main~1", "--series", "--branch", "rest", "--json")
    assert series.returncode == 0, series.stderr
    assert len(json.loads(series.stdout)["commits"]) == 1  # the last KEEP alone: none replayed backwards
    assert git(repo, "rev-parse", "rest^{tree}") == git(repo, "rev-parse", "main^{tree}")
    assert_one_line_error(cli(repo, "finalize", "--onto", "main", "--force"), 30, "nothing to review")


def test_a_head_elsewhere_is_said_not_taken_for_a_night_that_kept_nothing(tmp_path, the_night):
    """The morning after, the user checked out another commit: the KEEPs are not on HEAD. That is what is
    said, not "nothing to review" as if the night had kept nothing."""
    repo = copy_of(the_night, tmp_path / "repo")
    git(repo, "checkout", "-q", "--detach", "main~3")
    refused = cli(repo, "finalize")
    assert_one_line_error(refused, 30, "none of exp's 3 kept commit(s) is on HEAD: check out the branch it ran on")
    git(repo, "checkout", "-q", "main")
    assert cli(repo, "finalize").returncode == 0


def test_a_start_rewritten_away_is_said_in_one_line(tmp_path, the_night):
    """The branch rebased from its root and git gc'd: the experiment's start is gone. One line says so."""
    repo = copy_of(the_night, tmp_path / "repo")
    start = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    rewrite = "git commit -q --amend --allow-empty -m rewritten"
    git(repo, "-c", "core.hooksPath=/dev/null", "rebase", "-q", "--root", "--exec", rewrite)
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")
    done = cli(repo, "finalize")
    assert_one_line_error(done, 50, f"the experiment's start {start[:12]} is no longer in this repository")


def test_refusals_are_one_line_and_write_nothing(tmp_path, the_night):
    repo = copy_of(the_night, tmp_path / "repo")
    refs = git(repo, "for-each-ref")
    for args, words in [
        (("--branch", "main"), "branch 'main' is checked out"),
        (("--branch", "bad..name"), "--branch 'bad..name' is not a valid branch name"),
        (("--onto", "no-such-rev"), "--onto 'no-such-rev' is not a commit"),
        (("nobody",), "experiment 'nobody' has no history"),
    ]:
        assert_one_line_error(cli(repo, "finalize", *args), 30, *words)
    assert git(repo, "for-each-ref") == refs
    assert not (repo / ".autoresearch/runs/exp/review").exists()
    assert cli(repo, "finalize").returncode == 0
    tip = git(repo, "rev-parse", "autoresearch/exp-review")
    assert_one_line_error(cli(repo, "finalize", "--series"), 30, "exists: --force replaces it")
    assert git(repo, "rev-parse", "autoresearch/exp-review") == tip
    assert_one_line_error(cli(repo, "report", "--json", "--markdown"), 30, "choose one")


def test_a_branch_name_git_would_expand_or_find_ambiguous_is_refused_not_half_made(tmp_path, the_night):
    """`@{-1}` passes `git check-ref-format --branch` (git expands it to the branch checked out before), but
    update-ref refuses the name; a tag's name makes the printed `git push origin NAME` fail as ambiguous. Both are
    input mistakes (exit 30), refused before anything is written."""
    repo = copy_of(the_night, tmp_path / "repo")
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "checkout", "-q", "main")
    git(repo, "tag", "v1")
    refs = git(repo, "for-each-ref")
    assert_one_line_error(cli(repo, "finalize", "--branch", "@{-1}"), 30, "--branch '@{-1}' is not a valid branch name")
    assert_one_line_error(cli(repo, "finalize", "--branch", "v1"), 30, "--branch 'v1' is a tag's name too")
    assert git(repo, "for-each-ref") == refs
    assert not (repo / ".autoresearch/runs/exp/review").exists()


def test_an_experiment_that_kept_nothing_has_nothing_to_review(tmp_path):
    plan = {2: {"write": {ARTIFACT: scores(a=0, b=0)}, "summary": "no better"}}
    repo = scenario_repo(tmp_path / "repo", {ARTIFACT: scores(a=1, b=0)}, plan)
    assert cli(repo, "run").returncode == 10
    start = git(repo, "rev-parse", "HEAD").strip()
    assert_one_line_error(cli(repo, "finalize"), 30, f"nothing to review: prompts/p.md is the same in {start[:12]}")
    assert "None: the artifact is still the original." in cli(repo, "report", "--markdown").stdout


def test_a_night_that_kept_nothing_still_reviews_the_earlier_nights_work_onto_main(tmp_path, the_night):
    repo = copy_of(the_night, tmp_path / "repo")  # night one, on main
    first = git(repo, "rev-parse", "HEAD").strip()
    start = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    assert cli(repo, "run", "--experiment", "exp2").returncode == 10  # night two replays worse edits
    assert git(repo, "rev-parse", "HEAD").strip() == first
    done = cli(repo, "finalize", "exp2", "--onto", start, "--json")
    assert done.returncode == 0, done.stderr
    [review] = json.loads(done.stdout)["commits"]
    assert git(repo, "rev-parse", f"{review}^").strip() == start
    assert git(repo, "show", f"{review}:{ARTIFACT}") == scores(a=1, b=1, c=1)
    series = cli(repo, "finalize", "exp2", "--onto", start, "--series", "--force", "--json")
    [replayed] = json.loads(series.stdout)["commits"]  # no KEEP of its own: the work it began from, said so
    assert git(repo, "log", "-1", "--format=%s", replayed).strip() == "autoresearch: prompts/p.md as exp2 began"


def test_a_metrics_description_says_which_way_is_better_and_has_no_per_test_table(tmp_path):
    plan = {2: {"write": {"train.py": "METRIC 1.25\n"}, "summary": "smaller lr"}}
    config = {"eval": {"metric": {"pattern": r"val_bpb:\s*(\S+)", "goal": "minimize"}}}
    repo = scenario_repo(tmp_path / "repo", {"train.py": "METRIC 1.5\n"}, plan, config=config)
    assert cli(repo, "run").returncode == 0
    text = cli(repo, "report", "--markdown").stdout
    assert "Score **1.5 → 1.25** (lower is better)" in text and "Per test" not in text
    assert "| 2 | 1.25 | smaller lr |" in text


@pytest.mark.parametrize(
    "who",
    [
        {"GIT_AUTHOR_NAME": os.fsdecode(b"Jos\xe9"), "GIT_COMMITTER_NAME": os.fsdecode(b"J\xe9r\xf4me \xef\xbf\xbe")},
        {"GIT_AUTHOR_EMAIL": "", "GIT_COMMITTER_EMAIL": ""},
    ],
    ids=["latin-1-and-a-noncharacter", "empty-email"],
)
def test_odd_identities_are_signed_as_gits_commit_tree_signs_them(tmp_path, the_night, who):
    """A name in Latin-1 (`git var` prints its bytes as given) ended finalize in a traceback making the
    signature, and so did an empty email (`user.email = ""`), which git takes and libgit2 refused: the commit
    is now the very one `git commit-tree` makes of the same tree, parent, message, identities and dates."""
    repo = copy_of(the_night, tmp_path / "repo")
    env = {**who, "GIT_AUTHOR_DATE": "@1700000000 +0130", "GIT_COMMITTER_DATE": "@1700000001 -0200"}
    done = cli(repo, "finalize", "--json", env=env)
    assert done.returncode == 0, done.stderr
    review = json.loads(done.stdout)["commits"][0]
    tree, parent, message = (git(repo, "log", "-1", f"--format={part}", review) for part in ("%T", "%P", "%B"))
    same = subprocess.run(
        ["git", "commit-tree", tree.strip(), "-p", parent.strip(), "-F", "-"],
        cwd=repo,
        input=message.removesuffix("\n").encode(),
        capture_output=True,
        env={**os.environ, **GIT_ENV, **env},
        check=True,
    )
    assert same.stdout.decode().strip() == review
