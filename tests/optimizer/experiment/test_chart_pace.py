"""The live page is rewritten every few seconds, and less often once drawing it takes long: a long night's
page draws every line, and its share of the loop's time must not grow with the night."""

from __future__ import annotations

import time

from autoresearch.optimizer.cycle.record import write_chart
from autoresearch.optimizer.experiment.session import CHART_INTERVAL_S, CHART_SHARE
from tests.optimizer.unit import experiment, scores


def test_a_page_that_took_long_to_draw_waits_longer_than_the_interval_before_the_next(tmp_path):
    session = experiment(tmp_path, scores(a=0.5), {})
    try:
        write_chart(session, live=True)
        assert session.paths.chart.is_file() and session.chart_took_s > 0  # the redraw timed itself
        session.chart_took_s = 1.0  # a page of a long night
        session.chart_written_at = time.monotonic() - CHART_INTERVAL_S - 1
        assert not session.chart_due(live=True)  # the interval has passed, but not twenty times the drawing
        assert session.chart_due(live=False)  # the final page is always written
        session.chart_written_at = time.monotonic() - 1.0 / CHART_SHARE - 1
        assert session.chart_due(live=True)
        session.chart_took_s = 0.01  # a short night's page: the interval alone paces it
        session.chart_written_at = time.monotonic() - CHART_INTERVAL_S + 1
        assert not session.chart_due(live=True)
        session.chart_written_at = time.monotonic() - CHART_INTERVAL_S - 1
        assert session.chart_due(live=True)
    finally:
        session.close()
