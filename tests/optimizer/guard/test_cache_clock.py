"""The guard's clock probe in the cache's root: its times set to now at each settle, the same file reused
(a file made and removed a cycle cost a creation), and never a user's file a mutator put in its place."""

from __future__ import annotations

import os

from autoresearch.optimizer.guard.cachefolders import CacheFolders, probe


def test_the_probe_is_one_file_whose_change_time_is_the_mark(tmp_path):
    cache = tmp_path / "cache"
    (cache / "eval-key").mkdir(parents=True)
    folders = CacheFolders(str(cache))
    folders.settle(None)
    first = folders.mark
    fd = os.open(probe(str(cache)), os.O_RDONLY)  # the probe as made: a file made anew would leave it unnamed
    try:
        (cache / "eval-key" / "entry").write_text("rows\n")
        folders.settle(None)
        assert os.fstat(fd).st_nlink == 1 and os.fstat(fd).st_ino == os.stat(probe(str(cache))).st_ino
        assert folders.mark == os.fstat(fd).st_ctime_ns >= first
    finally:
        os.close(fd)
    assert folders.mark > os.stat(cache / "eval-key" / "entry").st_ctime_ns


def test_a_link_or_a_second_name_in_the_probes_place_leaves_the_users_file_as_it_was(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious user data\n")
    os.utime(victim, ns=(1_000_000_000, 1_000_000_000))
    for put in (os.symlink, os.link):
        put(victim, probe(str(cache)))
        CacheFolders(str(cache)).settle(None)
        made = os.lstat(probe(str(cache)))
        assert made.st_ino != victim.stat().st_ino and made.st_nlink == 1
        os.unlink(probe(str(cache)))
    assert victim.stat().st_mtime_ns == 1_000_000_000 and victim.stat().st_nlink == 1
    assert victim.read_text() == "precious user data\n"
