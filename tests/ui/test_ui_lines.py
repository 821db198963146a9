"""The row-diff repaint: what a LinesWidget repaints must turn the old row into the new one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.style import Style

from wizard_tui.ui.widgets.lines import _BLANK, Cell, changed_span

STYLES = (None, Style(bold=True), Style(color="red"))
cells = st.lists(st.tuples(st.sampled_from("ab ?←"), st.sampled_from(STYLES)), max_size=30)


def paint(screen: list[Cell], new: list[Cell], width: int) -> list[Cell]:
    """What the terminal shows after repainting ``changed_span`` of the row."""
    padded = new + [_BLANK] * (width - len(new))
    span = changed_span(screen[:width], new, width)
    out = list(screen[:width]) + [_BLANK] * (width - len(screen))
    if span is not None:
        start, end = span
        out[start:end] = padded[start:end]
    return out


@given(old=cells, new=cells, extra=st.integers(0, 5))
def test_repainting_the_span_turns_the_old_row_into_the_new(old, new, extra) -> None:
    width = max(len(old), len(new)) + extra
    assert paint(old, new, width) == new + [_BLANK] * (width - len(new))


def test_a_shorter_row_with_the_same_ending_still_blanks_the_old_tail() -> None:
    # The case that garbled the key bar in tmux: the same "Help  Quit" ending, shifted left.
    old = [(c, None) for c in " a Card  b Decide  ? Help  q Quit "]
    new = [(c, None) for c in " x Hide  ? Help  q Quit "]
    width = 40
    start, end = changed_span(old, new, width)
    assert start == 1 and end > len(new)  # reaches past the new row to blank the old tail
    assert paint(old, new, width) == new + [_BLANK] * (width - len(new))


def test_identical_rows_need_no_repaint() -> None:
    row = [(c, None) for c in "same"]
    assert changed_span(row, list(row), 10) is None


async def test_a_line_wider_than_the_widget_is_cropped_not_wrapped() -> None:
    # A long trick title ("won by <long name>") once wrapped onto the next row, leaving
    # "al)" behind there after the next diff repaint.
    from rich.text import Text
    from textual.app import App, ComposeResult

    from wizard_tui.ui.widgets.lines import LinesWidget

    class Two(LinesWidget):
        DEFAULT_CSS = "Two { width: 10; height: 2; }"
        text = "0123456789ABCDEF"

        def build(self, width: int) -> list[Text]:
            return [Text(self.text), Text("x")]

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield Two()

    async with Host().run_test(size=(20, 4)) as pilot:
        widget = pilot.app.query_one(Two)
        await pilot.pause()
        rows = [widget.render_line(y).text for y in range(2)]
        assert rows[0].startswith("0123456789")
        assert "A" not in "".join(rows)
        assert rows[1].startswith("x")
