"""The result cache's counts kept from inotify's names: a night's settle lists no eval folder again (its
listing grows by an entry a cycle), and the count is still what a listing gives, so that a mutator that adds,
removes or replaces entries is caught as before."""

from __future__ import annotations

import os

from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import rescue, scope
from tests.helpers.repos import make_repo


def _guard(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    folder = repo / ".autoresearch" / "cache" / "eval-key"
    folder.mkdir(parents=True)
    for n in range(5):
        (folder / f"{n:040x}-sample-1.jsonl").write_text("rows\n")
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", folder.parent, tmp_path / "guard")
    guard.open()
    return guard, folder


def test_a_nights_settles_list_the_eval_folder_once(tmp_path, monkeypatch):
    """The eval stores an entry a cycle; each settle listed its whole folder (0.14 ms a cycle early in a
    night, growing with it). Now the first settle lists it, and the later ones set the names inotify gave."""
    guard, folder = _guard(tmp_path)
    listed = []
    scandir = os.scandir

    def counted(path=".") -> os.ScandirIterator:
        listed.append(os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", counted)
    for n in range(5, 45):
        (folder / f"{n:040x}-sample-1.jsonl").write_text("rows\n")
        guard.settle()
        assert guard.cache.counts == {str(folder): n + 1}
    monkeypatch.undo()
    assert listed.count(str(folder)) <= 1, f"listed {listed.count(str(folder))} times in 40 cycles"
    guard.close()


def _store(folder, n: int, replace: bool = False) -> None:
    """As the eval stores an entry: made with O_EXCL, or a temporary file renamed over one already there."""
    path = folder / f"{n:040x}-sample-1.jsonl"
    if replace:
        tmp = folder / f".{path.name}.tmp"
        tmp.write_text("again\n")
        os.replace(tmp, path)
    else:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        os.close(fd)


def test_the_names_held_count_as_a_listing_does_and_each_mutation_is_caught(tmp_path):
    """Stores, replacements, a removal between mutations, and mutations in the mutation's window (a removal, a forged entry, an entry
    renamed away, a file made and removed again), each undone: after every settle the count is the
    listing's, and a removal after many cycles is still the folder's change."""
    guard, folder = _guard(tmp_path)

    def settled() -> None:
        guard.settle()
        assert guard.cache.counts[str(folder)] == len(os.listdir(folder))
        assert guard.changes() == []

    def mutated(*expected: str) -> None:
        changes, _ = rescue.undo_all(guard, tmp_path / f"run{len(os.listdir(tmp_path))}")
        assert sorted(os.path.basename(c.path) for c in changes) == sorted(expected)

    for n in range(5, 25):
        _store(folder, n, replace=n % 3 == 0)
        _store(folder, n - 5, replace=True)  # an entry written again: no new name
        settled()
    gone = folder / f"{7:040x}-sample-1.jsonl"
    gone.unlink()
    mutated(folder.name)
    settled()
    forged = folder / f"{'f' * 40}-sample-1.jsonl"
    forged.write_text("forged\n")
    mutated(forged.name)
    settled()
    away = folder / f"{9:040x}-sample-1.jsonl"
    os.rename(away, tmp_path / "away")
    mutated(folder.name)
    _store(folder, 30)  # and the eval's entry of the cycle, after the undo
    settled()
    brief = folder / "brief"
    brief.write_text("x")
    brief.unlink()
    assert guard.changes() == []
    _store(folder, 31)
    settled()
    (folder / f"{12:040x}-sample-1.jsonl").unlink()  # between two mutations (the user's): settled as it is
    settled()
    assert not forged.exists() and not gone.exists() and not away.exists()
    (folder / f"{11:040x}-sample-1.jsonl").unlink()
    assert [os.path.basename(c.path) for c in guard.changes()] == [folder.name]
    guard.close()


def test_a_sub_folder_in_an_eval_folder_is_listed_with_it(tmp_path):
    """Names are held only for a folder of files: one a mutator gave a sub-folder (which can move away
    whole, its names unreported) is listed at each settle, and counted as a walk counts it."""
    guard, folder = _guard(tmp_path)
    sub = folder / "sub"
    sub.mkdir()
    (sub / "a").write_text("a")
    (sub / "b").write_text("b")
    mutated = [os.path.basename(c.path) for c in rescue.undo_all(guard, tmp_path / "run")[0]]
    assert sorted(mutated) == ["a", "b", "sub"]
    guard.settle()
    assert guard.cache.counts[str(folder)] == 5
    sub.mkdir()
    (sub / "a").write_text("a")
    guard.settle()  # the eval's own, say: settled as they are
    assert guard.cache.counts[str(folder)] == 7
    os.rename(sub, tmp_path / "sub")
    _store(folder, 40)
    assert sorted(os.path.basename(c.path) for c in guard.changes()) == [f"{40:040x}-sample-1.jsonl", folder.name]
    guard.close()
