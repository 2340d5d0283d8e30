"""Regex graders agree with Node's `new RegExp(pattern, flags).test(text)` on a generated corpus."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from autoresearch.runs.graders import jsregex

# pieces where a translation to Python's `re` went wrong: Unicode properties, `[^]`, named back-references,
# anchors against newlines, case folding (the Kelvin sign, long s, dotted I), UTF-16 halves without `u`, escapes
# that only `u` or `v` refuse, look-behind
ATOMS = [
    *"aA.^$}{]",
    *[r"\d", r"\w", r"\W", r"\s", r"\S", r"\D", r"\b", r"\B", r"[^]", r"[a-z]", r"[^a]", r"\p{Lu}", r"\P{L}"],
    *[r"\p{Script=Greek}", r"(?<n>a)\k<n>", r"(a)\1", r"(?=a)", r"(?!b)", r"(?<=a)", r"(?<!a)", "é", "É", r"\u00e9"],
    *[r"\u{1F600}", "😀", r"\x41", r"\n", r"[\s\S]", r"\cJ", "ſ", "k", "K", r"[\d-z]", "a{2}", "a+?", "(a|b)*", r"\/"],
    *[r"[\b]", r"\0", r"\k", "a{,2}", r"\-", "(?:x)", r"[\w-]", r"\u{41}", "[😀]", "^.$", r"\ud83d", "İ", "i", "ß"],
]
INPUTS = ["", "a", "A", "ab", "aa", "a\n", "\n", "É", "é", "😀", "x😀y", "K", "ſ", "k", "İ", "i", "ß", "SS", "a b"]
INPUTS += ["1a", "abc\n", "\u212a", "αβΓ", "x", "a{,2}", "k\n", "{}", "/", "-", "\x00", "\r\n", "\u2028", "\u00a0"]
FLAGS = ["", "i", "m", "s", "u", "g", "y", "iu", "mu", "su", "imsu", "d", "v", "gi", "uy", "ii", "x"]
NODE = """
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
console.log(JSON.stringify(cases.map(([pattern, flags, text]) => {
  try { return new RegExp(pattern, flags).test(text); } catch (error) { return 'error'; }
})));
"""


def corpus(seed: int, size: int) -> list[tuple[str, str, str]]:
    rnd = random.Random(seed)
    patterns = ("".join(rnd.choice(ATOMS) for _ in range(rnd.randint(1, 3))) for _ in range(size))
    return [(pattern, rnd.choice(FLAGS), rnd.choice(INPUTS) + rnd.choice(INPUTS)) for pattern in patterns]


def ours(pattern: str, flags: str, text: str) -> bool | str:
    return "error" if jsregex.problem(pattern, flags) is not None else jsregex.matches(pattern, flags, text)


def test_a_generated_corpus_agrees_with_node():
    cases = corpus(seed=19, size=2000)
    node = subprocess.run(["node", "-e", NODE], input=json.dumps(cases), capture_output=True, text=True, check=True)
    expected = json.loads(node.stdout)
    disagreements = [(case, want, ours(*case)) for case, want in zip(cases, expected) if ours(*case) != want]
    assert disagreements == []
    outcomes = [sum(want == outcome for want in expected) / len(cases) for outcome in (True, False, "error")]
    assert min(outcomes) > 0.05  # the corpus has matches, misses and refused patterns


@pytest.mark.parametrize(
    "pattern, flags, text, expected",
    [
        (r"\p{Lu}", "u", "É", True),
        (r"[^]", "", "\n", True),
        (r"(?<w>ab)\k<w>", "", "abab", True),
        ("done$", "", "done\n", False),
        ("done$", "m", "done\n", True),
        ("b", "y", "ab", False),  # sticky: a fresh RegExp looks only at index 0
        ("^.$", "", "😀", False),  # without `u`, `.` is one UTF-16 unit
        ("^.$", "u", "😀", True),
        ("[a-z]", "i", "\u212a", False),  # the Kelvin sign folds to k only under `u`
        ("[a-z]", "iu", "\u212a", True),
    ],
)
def test_what_a_translation_got_wrong_is_javascript_now(pattern, flags, text, expected):
    assert jsregex.matches(pattern, flags, text) is expected


def test_bad_patterns_and_flags_carry_javascripts_message():
    assert jsregex.problem("(") == "Invalid regular expression: /(/: Unterminated group"
    assert "Invalid flags" in (jsregex.problem("a", "gg") or "")
    assert jsregex.problem(r"\p{Lu}", "u") is None


def test_a_runaway_pattern_stops_at_its_timeout_and_the_engine_goes_on():
    with pytest.raises(TimeoutError):
        jsregex.matches("(a+)+$", "", "a" * 40 + "b", timeout_sec=0.2)
    assert jsregex.matches("a", "", "a")


def test_a_regex_runs_where_an_event_loop_runs_as_in_a_notebook():
    """Code in a notebook cell, or beside a browser driver, runs inside an event loop: the engine is made
    there (a fresh process: this one's engine may already exist) and still runs each pattern with its timeout."""
    script = (
        "import asyncio\n"
        "from autoresearch.runs.graders import jsregex\n"
        "async def cell():\n"
        "    return jsregex.matches('a', '', 'a', timeout_sec=1), jsregex.problem('(') is not None\n"
        "print(asyncio.run(cell()))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "(True, True)\n", done.stderr[-2000:]
