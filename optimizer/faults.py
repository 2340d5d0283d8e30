"""The crash tests' kill points, for the loop's modules: they live in plumbing (plumbing/faults.py), below every
package, so that `process.run` has one too (between a command's start and its watcher's hearing of it)."""

from autoresearch.plumbing.faults import ENV, point

__all__ = ["ENV", "point"]
