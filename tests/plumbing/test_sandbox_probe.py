"""Whether bubblewrap works is asked once; a probe that does not answer in time (a loaded machine) is asked
again, never taken for "no sandbox here"."""

from __future__ import annotations

from pathlib import Path

from autoresearch.plumbing import sandbox

FAKE_BWRAP = """#!/bin/sh
# hangs the first {hangs} time(s) it is called, then makes its "sandbox" at once
calls={calls}
n=$(cat "$calls" 2>/dev/null || echo 0)
echo $((n + 1)) > "$calls"
if [ "$n" -lt {hangs} ]; then exec sleep 60; fi
exit 0
"""


def fake_bwrap(tmp_path: Path, hangs: int) -> tuple[str, Path]:
    program, calls = tmp_path / "bwrap", tmp_path / "calls"
    program.write_text(FAKE_BWRAP.format(calls=calls, hangs=hangs))
    program.chmod(0o755)
    return str(program), calls


def test_a_probe_that_hangs_once_is_asked_again_and_the_sandbox_works(tmp_path):
    program, calls = fake_bwrap(tmp_path, hangs=1)
    assert sandbox.works(program, timeout_s=1) is True
    assert calls.read_text().strip() == "2"


def test_a_probe_that_timed_out_is_not_remembered_as_no_sandbox(tmp_path):
    program, calls = fake_bwrap(tmp_path, hangs=2)
    assert sandbox.works(program, timeout_s=1) is None  # unknown: said at start, and asked again next time
    assert sandbox.works(program, timeout_s=1) is True
    assert sandbox.works(program, timeout_s=1) is True
    assert calls.read_text().strip() == "3"  # the answer, once given, is remembered


REFUSING_NO_NEW_PRIVS = """#!/bin/sh
# makes its "sandbox" unless started with no-new-privileges (as a security module's rule may refuse it)
if grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status; then echo 'bwrap: Permission denied' >&2; exit 1; fi
exit 0
"""


def test_a_bubblewrap_that_fails_in_the_landlock_domain_is_run_without_it_and_said(tmp_path):
    program = tmp_path / "bwrap"
    program.write_text(REFUSING_NO_NEW_PRIVS)
    program.chmod(0o755)
    assert sandbox.works(str(program)) is True
    assert sandbox.unscoped(str(program)) == (
        "bubblewrap could not start in the Landlock domain here (bwrap: Permission denied)"
    )
    assert sandbox.Sandbox(program=str(program)).argv(["true"], Path("/"))[0] == str(program)


FAILING_WHILE_FLAGGED = """#!/bin/sh
# fails, in the domain or not, while {flag} exists (a machine out of processes for a moment)
if [ -e {flag} ]; then echo 'bwrap: Resource temporarily unavailable' >&2; exit 1; fi
exit 0
"""


def test_a_bubblewrap_failing_in_and_out_of_the_domain_alike_keeps_the_domain(tmp_path):
    """A failure bubblewrap alone has too is bubblewrap's moment, not a refusal of the domain: taken for one, it
    was remembered, and every later sandbox of the process went without the domain, unsaid past the start."""
    program, flag = tmp_path / "bwrap", tmp_path / "flag"
    program.write_text(FAILING_WHILE_FLAGGED.format(flag=flag))
    program.chmod(0o755)
    assert sandbox.works(str(program)) is True
    flag.touch()
    assert sandbox.unscoped(str(program)) is None
    flag.unlink()
    assert sandbox.unscoped(str(program)) is None
    assert sandbox.Sandbox(program=str(program)).argv(["true"], Path("/"))[0] != str(program)  # in the domain
