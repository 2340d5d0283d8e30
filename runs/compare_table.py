"""`agentv compare`'s text table (4.42.4's formatTable), byte for byte, so either tool's output diffs clean.

Numbers print as JavaScript's `toFixed` prints them: the exact binary value
rounded half away from zero (0.625 is "0.63", where Python's format gives
"0.62"), and -0 as "0.00". Widths count UTF-16 code units, as `.length` does.
Colours are AgentV's ANSI codes, used only on a terminal and without
`NO_COLOR`, as AgentV decides.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from autoresearch.plumbing.text import inert
from autoresearch.runs.compare import Comparison

ANSI = {
    "reset": "\x1b[0m",
    "bold": "\x1b[1m",
    "dim": "\x1b[2m",
    "green": "\x1b[32m",
    "red": "\x1b[31m",
    "yellow": "\x1b[33m",
    "cyan": "\x1b[36m",
    "gray": "\x1b[90m",
}
_ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")


def js_fixed(value: float, digits: int) -> str:
    """`Number.prototype.toFixed(digits)` for the finite values a comparison holds (below 1e21)."""
    text = str(Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))
    return text[1:] if value == 0 and text.startswith("-") else text


def js_len(text: str) -> int:
    """A string's JavaScript `.length`: UTF-16 code units, so a character outside the BMP counts two."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2  # a lone surrogate is one unit, as in JS


class _Paint:
    def __init__(self, color: bool):
        self.codes = ANSI if color else dict.fromkeys(ANSI, "")

    def __call__(self, name: str, text: str) -> str:
        return f"{self.codes[name]}{text}{self.codes['reset']}"

    def signed(self, value: float, digits: int) -> str:
        """`+0.25` green, `-0.25` red, `+0.00` grey: AgentV's deltas and means."""
        shown = ("+" if value >= 0 else "") + js_fixed(value, digits)
        return self("green" if value > 0 else "red" if value < 0 else "gray", shown)


def _pad_right(text: str, width: int) -> str:
    return text + " " * max(0, width - js_len(_ANSI_CODE.sub("", text)))


def _pad_left(text: str, width: int) -> str:
    return " " * max(0, width - js_len(_ANSI_CODE.sub("", text))) + text


OUTCOMES = {"win": ("green", "✓ win"), "loss": ("red", "✗ loss"), "tie": ("gray", "= tie")}


def _rows(result: Comparison, paint: _Paint) -> list[str]:
    if not result.matched:
        return [paint("yellow", "No matching test IDs found between files.")]
    ids = [inert(m.test_id) for m in result.matched]  # an eval's ids: a terminal sequence in one is shown, not acted on
    width = max([7, *(js_len(test_id) for test_id in ids)])
    header = f"  {_pad_right('Test ID', width)}  {'Baseline':>8}  {'Candidate':>9}  {'Delta':>8}  Result"
    rule = f"  {'─' * width}  {'─' * 8}  {'─' * 9}  {'─' * 8}  {'─' * 8}"
    lines = [paint("dim", header), paint("dim", rule)]
    for m, test_id in zip(result.matched, ids, strict=True):
        outcome = paint(*OUTCOMES[m.outcome])
        lines.append(
            f"  {_pad_right(test_id, width)}  {_pad_left(js_fixed(m.score1, 2), 8)}"
            f"  {_pad_left(js_fixed(m.score2, 2), 9)}  {_pad_left(paint.signed(m.delta, 2), 8)}  {outcome}"
        )
    return lines


def _summary(result: Comparison, paint: _Paint) -> str:
    s = result.summary
    wins = paint("green", f"{s.wins} win{'s' if s.wins != 1 else ''}") if s.wins > 0 else f"{s.wins} wins"
    losses = paint("red", f"{s.losses} loss{'es' if s.losses != 1 else ''}") if s.losses > 0 else f"{s.losses} losses"
    ties = f"{s.ties} tie{'s' if s.ties != 1 else ''}"
    status = (
        paint("green", "improved")
        if s.mean_delta > 0
        else paint("red", "regressed")
        if s.mean_delta < 0
        else paint("gray", "neutral")
    )
    line = f"{paint('bold', 'Summary:')} {wins}, {losses}, {ties} | Mean Δ: {paint.signed(s.mean_delta, 3)}"
    if s.mean_normalized_gain is not None:
        line += f" | g: {paint.signed(s.mean_normalized_gain, 3)}"
    return f"{line} | Status: {status}"


def table(result: Comparison, baseline: str, candidate: str, color: bool = False) -> str:
    """The text `agentv compare BASE CAND` prints (without console.log's closing newline)."""
    paint = _Paint(color)
    lines = [
        "",
        f"{paint('bold', 'Comparing:')} {paint('cyan', inert(baseline))} → {paint('cyan', inert(candidate))}",
        "",
    ]
    lines += _rows(result, paint)
    u = result.unmatched
    if u["file1"] > 0 or u["file2"] > 0:
        lines += ["", f"{paint('yellow', '⚠ Unmatched:')} {u['file1']} in baseline, {u['file2']} in candidate"]
    return "\n".join([*lines, "", _summary(result, paint), ""])
