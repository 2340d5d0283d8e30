"""Which paths a walk from the guard's roots reaches (`Scope.covers`), asked of every path inotify names:
the same answers as a walk, for work in proportion to the path's depth."""

from __future__ import annotations

import os

from autoresearch.optimizer.guard.reach import Scope


def _scope(tmp_path) -> Scope:
    root, other = str(tmp_path / "repo"), str(tmp_path / "common" / "hooks")
    os.makedirs(os.path.join(root, "vendor", "lib", ".git"))
    open(os.path.join(root, "vendor", "lib", ".git", "HEAD"), "w").close()
    excluded = frozenset({os.path.join(root, "prompt.md"), os.path.join(root, "results")})
    return Scope((root, other), excluded, str(tmp_path / "repo" / ".git" / "objects"))


def test_covers_answers_as_a_walk_would(tmp_path):
    scope = _scope(tmp_path)
    root = str(tmp_path / "repo")
    reached = [root, f"{root}/a", f"{root}/a/b/c.txt", f"{root}/prompt.mdx", f"{root}/vendor/lib/.git/HEAD"]
    reached += [str(tmp_path / "common" / "hooks"), str(tmp_path / "common" / "hooks" / "pre-commit")]
    left_out = [f"{root}/prompt.md", f"{root}/results/x/y", f"{root}/vendor/lib/.git/objects/ab/cd"]
    left_out += [str(tmp_path / "common"), str(tmp_path / "common" / "config"), f"{root}x/a", "/elsewhere"]
    assert [p for p in reached if not scope.covers(p)] == []
    assert [p for p in left_out if scope.covers(p)] == []


def test_a_deep_path_is_built_once_per_folder_on_the_way(tmp_path, monkeypatch):
    scope = _scope(tmp_path)
    path = os.path.join(str(tmp_path / "repo"), *(f"d{n}" for n in range(40)), "f.txt")
    parts = []
    join = os.path.join
    monkeypatch.setattr(os.path, "join", lambda *names: parts.append(len(names)) or join(*names))
    assert scope.covers(path)
    assert (
        sum(parts) <= 2 * 42
    )  # two names a step (the folder above, and one name); a rebuild from the root each time was 903
