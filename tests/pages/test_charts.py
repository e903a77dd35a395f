"""SVG chart geometry: bars scaled to the largest share, steps on a fixed scale."""

from __future__ import annotations

import itertools

from pages.charts import BAR_AREA, Bar, bar_chart, step_chart


def test_the_most_likely_outcome_fills_the_bar_area():
    chart = bar_chart([Bar("miss", 0.5, "50%"), Bar("hit", 0.25, "25%")], title="t")

    assert [bar.width for bar in chart.bars] == [BAR_AREA, BAR_AREA / 2]
    assert [bar.is_top for bar in chart.bars] == [True, False]


def test_bars_are_stacked_one_row_each_without_overlap():
    chart = bar_chart([Bar(str(n), 0.1, "") for n in range(5)], title="t")

    tops = [bar.y for bar in chart.bars]
    assert all(b - a >= chart.bar_height for a, b in itertools.pairwise(tops))
    assert chart.height >= tops[-1] + chart.bar_height


def test_an_impossible_outcome_draws_an_empty_bar():
    chart = bar_chart([Bar("a", 1.0, "100%"), Bar("b", 0.0, "0%")], title="t")

    assert chart.bars[1].width == 0
    assert not chart.bars[1].is_top


def test_a_long_outcome_name_widens_the_label_column():
    short = bar_chart([Bar("hit", 1.0, "")], title="t")
    long = bar_chart([Bar("hits 12 out of missiles", 1.0, "")], title="t")

    assert long.bar_x > short.bar_x


def test_a_step_chart_puts_the_higher_value_nearer_the_top():
    chart = step_chart([("start", 7), ("battle 1", 8)], title="Fire", low=2, high=12)

    assert chart.points[1].y < chart.points[0].y
    assert chart.path.startswith(f"M{chart.points[0].x},{chart.points[0].y}")


def test_a_step_chart_widens_its_scale_to_fit_a_value_out_of_range():
    chart = step_chart([("start", 15)], title="Hits", low=0, high=14)

    assert chart.ticks[0].text == "15"
