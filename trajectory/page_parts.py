"""The HTML pieces of the trajectory page around its charts: summary cards, legend, table of cycles.

Every value that comes from iterations.jsonl or state.json goes through
`esc` (text) or `quote` (URLs): a mutation summary is text, never markup.
"""

from __future__ import annotations

from urllib.parse import quote

from autoresearch.trajectory.chartdata import Reading, Summary, number
from autoresearch.trajectory.charts import series_color
from autoresearch.trajectory.iterations import Iteration
from autoresearch.trajectory.svg import esc

RUN_FILES = ("index.jsonl", "candidate.patch", "mutation.md", "grading.json", "benchmark.json", "eval.stderr.log")


def score(value: float | None) -> str:
    return "–" if value is None else f"{value:.4g}"


def money(value: float) -> str:
    return f"${value:.4f}" if value < 1 else f"${value:,.2f}"


def time_tag(value: object) -> str:
    return f'<time datetime="{esc(value)}">{esc(value)}</time>' if value else "–"


def _card(label: str, value: str, note: str = "", css: str = "") -> str:
    note_html = f'<div class="note">{note}</div>' if note else ""
    return f'<div class="card {css}"><div class="label">{esc(label)}</div><div class="value">{value}</div>{note_html}</div>'


def _improvement(s: Summary, reading: Reading) -> tuple[str, str]:
    """A minimize goal's gain is a fall: 1.7 -> 0.9 reads "0.8 lower", not "-0.8, -47% of the original"."""
    if s.improvement is None:
        return "–", ""
    if reading.goal == "minimize":
        relative = f"{-s.improvement / abs(s.original):.0%} below the original" if s.original else ""
        return f"{-s.improvement:.4g} lower", f"{relative}; lower is better".lstrip("; ")
    relative = f"{s.improvement / abs(s.original):+.0%} of the original" if s.original else ""
    return f"{s.improvement:+.4g}", relative


def status_text(status: str, state: dict, live: bool) -> tuple[str, str]:
    """(headline, detail): what the loop is doing, or why it ended."""
    if live:
        phase = state.get("phase")
        detail = f"cycle {state.get('cycle', '?')}, {phase}" if phase else ""
        return "running", detail
    reason = state.get("stop_reason")
    headline = str(state.get("status") or status)
    return headline, f"why: {reason}" if reason else ""


def cards(s: Summary, status: str, state: dict, live: bool, reading: Reading = Reading()) -> str:
    gain, relative = _improvement(s, reading)
    headline, detail = status_text(status, state, live)
    best_note = f"HEAD, cycle {s.best_cycle}" if s.best_cycle is not None else "no KEEP yet"
    return "".join(
        [
            _card("original score", esc(score(s.original)), "cycle 1, the untouched artifact"),
            _card("best score", esc(score(s.best)), esc(best_note)),
            _card("improvement", esc(gain), esc(relative)),
            _card("cycles", str(s.cycles)),
            _card("keeps / drops / errors", f"{s.keeps} / {s.drops} / {s.errors}"),
            _card(
                "total cost",
                esc(money(s.total_cost)),
                esc(f"eval {money(s.eval_cost)} + mutation {money(s.mutation_cost)}"),
            ),
            _card("status", esc(headline), esc(detail), "running" if live else "done"),
            _card("started", time_tag(state.get("started_at"))),
            _card("last update", time_tag(state.get("updated_at"))),
        ]
    )


def legend(names: list[str]) -> str:
    """Buttons, not SVG: 50 names wrap and scroll like text, and each is a keyboard-reachable toggle."""
    buttons = [
        '<button type="button" class="all" data-action="all">show all</button>',
        '<button type="button" class="all" data-action="none">hide all</button>',
    ]
    for i, name in enumerate(names):
        buttons.append(
            f'<button type="button" data-series="{i}" aria-pressed="true" title="{esc(name)}">'
            f'<span class="swatch" style="background:{series_color(i)}"></span>{esc(name)}</button>'
        )
    return f'<div class="series-legend" role="group" aria-label="assertions">{"".join(buttons)}</div>'


HEADER = (
    "<tr><th>cycle</th><th>score</th><th>decision</th><th title='wins / losses / ties against HEAD'>W / L / T</th>"
    "<th>mutation</th><th>cost</th><th>duration</th><th>time</th><th>files</th></tr>"
)


def table(records: list[Iteration], run_files: dict[str, list[str]] | None) -> str:
    """Newest cycle first: in the morning, and while watching, the latest is what you look for."""
    rows = "".join(_row(r, run_files) for r in reversed(records))
    return f'<div class="table-wrap"><table id="cycles"><thead>{HEADER}</thead><tbody>{rows}</tbody></table></div>'


def _row(r: Iteration, run_files: dict[str, list[str]] | None) -> str:
    wlt = [number(r, k) for k in ("wins", "losses", "ties")]
    duration = number(r, "duration_s")
    mutation_cost = number(r, "mutation_cost_usd") or 0.0
    error = r.error
    error_html = f'<div class="err">{esc(error)}</div>' if error else ""
    return (
        f'<tr data-cycle="{r.cycle}" class="{esc(r.decision)}"><td class="num">{r.cycle}</td>'
        f'<td class="num">{esc(score(r.score))}</td>'
        f'<td><span class="badge {esc(r.decision)}">{esc(r.decision.upper())}</span></td>'
        f'<td class="num">{" / ".join("–" if v is None else f"{v:g}" for v in wlt)}</td>'
        f'<td class="mutation">{esc(r.mutation)}{error_html}</td>'
        f'<td class="num" title="eval {esc(money(r.cost_usd))} + mutation {esc(money(mutation_cost))}">'
        f"{esc(money(r.cost_usd + mutation_cost))}</td>"
        f'<td class="num">{"–" if duration is None else f"{duration:.1f} s"}</td>'
        f'<td>{time_tag(r.timestamp)}</td><td class="links">{_links(r, run_files)}</td></tr>'
    )


def _links(r: Iteration, run_files: dict[str, list[str]] | None) -> str:
    """Relative links from `_autoresearch/trajectory.html` to `../<run_dir>/`: they work from disk and when served."""
    parts = []
    if r.run_dir:
        base = "../" + quote(r.run_dir, safe="") + "/"
        names = run_files.get(r.run_dir, []) if run_files is not None else _expected_files(r)
        parts.append(f'<a href="{esc(base)}">run</a>')
        parts.extend(f'<a href="{esc(base + quote(n))}">{esc(n)}</a>' for n in names)
    commit = r.commit
    if isinstance(commit, str) and commit:
        parts.append(f'<code title="git show {esc(commit)}">{esc(commit[:10])}</code>')
    return " ".join(parts)


def _expected_files(r: Iteration) -> list[str]:
    """Without a listing of the run directory, link what the daemon writes for this kind of cycle."""
    return ["index.jsonl", "mutation.md"] + (["candidate.patch"] if r.decision != "keep" else [])
