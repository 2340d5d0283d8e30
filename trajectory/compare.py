"""Several experiments on one page (`autoresearch chart A B`): their summaries side by side and their
scores over one cycle axis, written beside the experiments in `<results>/compare/`."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from autoresearch.plumbing import atomic
from autoresearch.plumbing.redact import redact
from autoresearch.trajectory import chartdata, charts, page, page_parts
from autoresearch.trajectory.iterations import Iteration
from autoresearch.trajectory.svg import esc

FOLDER = "compare"
MAX_NAME = 200  # a file name stays well under the 255 bytes file systems allow

Named = list[tuple[str, list[Iteration]]]


def compare_svg(named: Named) -> str:
    return charts.compare_chart([(name, chartdata.series(r)) for name, r in named], standalone=True) + "\n"


def path_for(results_dir: Path, names: list[str]) -> Path:
    return results_dir / FOLDER / ("-vs-".join(names)[:MAX_NAME] + ".html")


def write(results_dir: Path, named: Named) -> Path:
    out = path_for(results_dir, [name for name, _ in named])
    atomic.write_text(out, redact(render(named)), durable=False)
    return out


def render(named: Named) -> str:
    names = [name for name, _ in named]
    chart = charts.compare_chart([(name, chartdata.series(r)) for name, r in named])
    body = (
        f"<section><h2>Experiments</h2>{_table(named)}</section>\n<section><h2>Score per cycle</h2>{chart}"
        '<p class="note">Filled points are KEEPs, hollow ones DROPs and errors; each line is that experiment\'s '
        "HEAD.</p></section>"
    )
    return page.document(
        "autoresearch · " + " vs ".join(names),
        body,
        key="compare:" + "/".join(names),
        footer="Written from each experiment's iterations.jsonl by `autoresearch chart " + " ".join(names) + "`.",
    )


HEADER = (
    '<tr><th>experiment</th><th class="num">original</th><th class="num">best (HEAD)</th>'
    '<th class="num">improvement</th><th class="num">cycles</th><th class="num">keeps / drops / errors</th>'
    '<th class="num">cost</th></tr>'
)


def _table(named: Named) -> str:
    rows = "".join(_row(i, name, chartdata.summary(records)) for i, (name, records) in enumerate(named))
    return f'<div class="table-wrap"><table id="experiments"><thead>{HEADER}</thead><tbody>{rows}</tbody></table></div>'


def _row(index: int, name: str, s: chartdata.Summary) -> str:
    href = f"../runs/{quote(name, safe='')}/_autoresearch/trajectory.html"
    best = page_parts.score(s.best) + (f" (cycle {s.best_cycle})" if s.best_cycle is not None else "")
    gain = "–" if s.improvement is None else f"{s.improvement:+.4g}"
    return (
        f'<tr data-experiment="{index}"><td>{page_parts.line_swatch(charts.experiment_color(index), index)}'
        f'<a href="{esc(href)}">{esc(name)}</a></td>'
        f'<td class="num">{esc(page_parts.score(s.original))}</td><td class="num">{esc(best)}</td>'
        f'<td class="num">{esc(gain)}</td><td class="num">{s.cycles}</td>'
        f'<td class="num">{s.keeps} / {s.drops} / {s.errors}</td><td class="num">{esc(page_parts.money(s.total_cost))}</td></tr>'
    )
