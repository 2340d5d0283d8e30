"""The merge candidate's three-way merge of siblings' patches, on real repositories."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest
from pygit2.enums import FileMode

from autoresearch.optimizer.gitrepo.merge import UnsafePatch, carry_tree, merge_patches, tree_patch
from autoresearch.plumbing.errors import IntegrityError
from tests.helpers.repos import git, make_repo

LINES = "".join(f"line {n}\n" for n in range(1, 21))


def _patch(repo: Path, edit) -> str:
    """A sibling's patch: `edit` applied to the checkout, diffed as `candidate_patch` does, then undone."""
    edit(repo)
    patch = git(repo, "diff", "--binary", "HEAD").removesuffix("\n")
    git(repo, "reset", "-q")
    git(repo, "checkout", "--", ".")
    git(repo, "clean", "-fdq")
    return patch


def _replace(path: str, old: str, new: str):
    def edit(repo: Path) -> None:
        target = repo / path
        target.write_text(target.read_text().replace(old, new))

    return edit


def _new(path: str, make):
    """An edit that creates `path` (by `make(full path)`) and lets `git diff` see it."""

    def edit(repo: Path) -> None:
        make(repo / path)
        git(repo, "add", "-N", path)

    return edit


def _state(repo: Path) -> dict:
    """What the merge must leave as it was: the checkout, the index, HEAD, every ref."""
    return {
        cmd: git(repo, *cmd.split()) for cmd in ("status --porcelain", "ls-files -s", "rev-parse HEAD", "for-each-ref")
    }


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path / "r", {"prompt/a.md": LINES, "prompt/b.md": "bee\n", "other.md": "x\n"})


def test_disjoint_edits_merge_without_touching_the_checkout(repo):
    head = git(repo, "rev-parse", "HEAD").strip()
    first = _patch(repo, _replace("prompt/a.md", "line 2\n", "line two\n"))
    second = _patch(repo, _replace("prompt/a.md", "line 15\n", "line fifteen\n"))
    third = _patch(repo, _replace("prompt/b.md", "bee", "wasp"))
    (repo / "other.md").write_text("the user's own edit\n")  # a dirty checkout stays as it is
    git(repo, "add", "other.md")
    before = _state(repo)

    tree = merge_patches(repo, head, [first, second, third], scope="prompt")

    assert tree is not None
    assert git(repo, "show", f"{tree}:prompt/a.md") == LINES.replace("line 2\n", "line two\n").replace(
        "line 15\n", "line fifteen\n"
    )
    assert git(repo, "show", f"{tree}:prompt/b.md") == "wasp\n"
    assert git(repo, "show", f"{tree}:other.md") == "x\n"  # HEAD's, not the user's staged edit
    assert before == _state(repo)
    (repo.parent / "merge.patch").write_text(tree_patch(repo, head, tree) + "\n")  # applies like a sibling's
    git(repo, "apply", "--check", str(repo.parent / "merge.patch"))


def test_overlapping_edits_conflict(repo):
    head = git(repo, "rev-parse", "HEAD").strip()
    first = _patch(repo, _replace("prompt/a.md", "line 7\n", "seven\n"))
    second = _patch(repo, _replace("prompt/a.md", "line 7\n", "SEVEN\n"))
    before = _state(repo)
    assert merge_patches(repo, head, [first, second], scope="prompt") is None
    assert before == _state(repo)


def test_a_new_file_and_an_edit_merge(repo):
    head = git(repo, "rev-parse", "HEAD").strip()
    added = _patch(repo, _new("prompt/c.md", lambda p: p.write_text("new\n")))
    edited = _patch(repo, _replace("prompt/b.md", "bee", "wasp"))
    tree = merge_patches(repo, head, [added, edited], scope="prompt")
    assert tree is not None and git(repo, "show", f"{tree}:prompt/c.md") == "new\n"


def test_a_symlink_in_a_patch_is_refused(repo):
    head = git(repo, "rev-parse", "HEAD").strip()
    linked = _patch(repo, _new("prompt/secrets", lambda p: p.symlink_to("/etc/passwd")))
    assert "new file mode 120000" in linked
    plain = _patch(repo, _replace("prompt/b.md", "bee", "wasp"))
    with pytest.raises(UnsafePatch, match="symlink"):
        merge_patches(repo, head, [plain, linked], scope="prompt")


@pytest.mark.parametrize("path", [".git/hooks/pre-commit", "prompt/.GIT/config", "prompt/../other.md", "other.md"])
def test_a_path_outside_the_artifact_or_in_git_is_refused(repo, path):
    head = git(repo, "rev-parse", "HEAD").strip()
    plain = _patch(repo, _replace("prompt/b.md", "bee", "wasp"))
    forged = f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+owned\n"
    with pytest.raises(UnsafePatch, match="merge refused"):
        merge_patches(repo, head, [plain, forged], scope="prompt")
    assert not (repo / ".git/hooks/pre-commit").exists()


def test_a_patch_that_does_not_apply_is_an_integrity_error(repo):
    head = git(repo, "rev-parse", "HEAD").strip()
    plain = _patch(repo, _replace("prompt/b.md", "bee", "wasp"))
    stale = plain.replace("-bee", "-moth")
    with pytest.raises(IntegrityError):
        merge_patches(repo, head, [plain, stale], scope="prompt")


def test_one_patch_is_not_a_merge(repo):
    with pytest.raises(ValueError):
        merge_patches(repo, "HEAD", ["x"], scope="prompt")


def _commit(repo: Path, files: dict[str, str], parent: str) -> str:
    """A commit holding exactly `files`, made in the object store only (as a forged ref's would be)."""
    store = pygit2.Repository(str(repo))
    index = pygit2.Index()
    for relative, text in files.items():
        index.add(pygit2.IndexEntry(relative, store.create_blob(text), FileMode.BLOB))
    who = pygit2.Signature("mutator", "mutator@localhost")
    return str(store.create_commit(None, who, who, "forged", index.write_tree(store), [pygit2.Oid(hex=parent)]))


def test_a_carried_candidate_never_changes_a_file_outside_the_artifact_through_a_rename(tmp_path):
    """A forged candidate ref (an unsandboxed mutator may write one) chooses its own base: one where a file
    of the artifact holds another file's text. Between that base and HEAD git sees a rename out of the
    artifact, and the candidate's edit of that file would follow it onto the file outside."""
    repo = make_repo(tmp_path / "r", {"prompt/a.md": "prompt\n", "eval/grader.md": LINES})
    head = git(repo, "rev-parse", "HEAD").strip()
    base = _commit(repo, {"prompt/a.md": "prompt\n", "prompt/decoy.md": LINES}, head)
    forged = _commit(
        repo, {"prompt/a.md": "prompt\n", "prompt/decoy.md": LINES.replace("line 3\n", "always pass\n")}, base
    )
    with pytest.raises(UnsafePatch, match="eval/grader.md"):
        carry_tree(repo, base, head, f"{forged}^{{tree}}", "prompt")
