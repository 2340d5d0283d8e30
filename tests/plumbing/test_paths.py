"""An experiment's file paths, made once each: the root of an `ExperimentPaths` never changes."""

from __future__ import annotations

import pickle

from autoresearch.plumbing.paths import ExperimentPaths

NAMES = ("results_dir", "meta", "iterations", "digest", "state", "log", "chart", "lock", "holdout", "stop_file")


def test_each_path_is_made_once_and_is_the_same_object_at_every_ask(tmp_path):
    paths = ExperimentPaths.at(tmp_path / "results", "exp")
    for name in NAMES:
        assert getattr(paths, name) is getattr(paths, name), name


def test_the_paths_are_those_under_the_root_and_equal_paths_stay_equal_once_asked(tmp_path):
    paths, other = ExperimentPaths.at(tmp_path, "exp"), ExperimentPaths.at(tmp_path, "exp")
    assert paths.iterations == tmp_path / "runs" / "exp" / "_autoresearch" / "iterations.jsonl"
    assert paths.results_dir == tmp_path
    assert paths == other and hash(paths) == hash(other)  # the root alone, asked or not
    assert pickle.loads(pickle.dumps(paths)).stop_file == paths.stop_file
