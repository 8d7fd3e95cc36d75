"""Pictures of boards: panels side by side (start, presses, quiet pattern, ...), titled, with a
legend and notes underneath, written as PNG (own encoder, `png.py`) or SVG (text).

One layout serves both formats. A cell is `pitch` pixels square: 32 on small boards, shrinking
with the board down to one pixel a cell from 640 cells across (4095 x 4095 is 4095 pixels a
panel). From a pitch of 6 up, 1-pixel grid lines separate the cells and a cell's colour fills
the pitch - 1 pixels inside them; from 14 up, columns are lettered and rows numbered as on the
text grids. PNG rows are produced one at a time and streamed into zlib; SVG draws one rectangle
a cell and is refused above SVG_MAX_CELLS cells a panel (a PNG is the format for big boards).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, cast

from countlo.board import Shape, column_letters
from countlo.errors import CountloError
from countlo.formats import font
from countlo.formats.network import Network
from countlo.formats.output import check, replacing, write_text
from countlo.formats.png import write_png
from countlo.printable import printable

# Palette (index: RGB). Lit lights are amber on dark slate, as in the game; presses red and
# quiet patterns violet on pale grey, so the kinds of panel cannot be mistaken for each other.
PALETTE: dict[str, tuple[int, tuple[int, int, int]]] = {
    "background": (0, (255, 255, 255)),
    "ink": (1, (32, 32, 32)),
    "grid": (2, (150, 150, 150)),
    "dark": (3, (48, 54, 64)),
    "lit": (4, (255, 200, 40)),
    "blank": (5, (232, 232, 232)),
    "press": (6, (214, 60, 55)),
    "quiet": (7, (125, 80, 205)),
    "join": (8, (0, 150, 160)),  # an edge joined plainly to the opposite one (cylinder, torus)
    "twist": (9, (230, 60, 170)),  # an edge joined with a half twist (Moebius, Klein, projective)
}
# More than two states: the states between 0 and k - 1 take SHADES steps from the off colour to
# the on colour of their panel (0 and k - 1 keep the two-state colours, so a two-state picture
# is unchanged), named "lit 1" .. "lit 14".
SHADES = 14


def _ramps() -> dict[str, tuple[int, tuple[int, int, int]]]:
    out = {}
    for first, (off, on) in enumerate((("dark", "lit"), ("blank", "press"), ("blank", "quiet"))):
        a, b = PALETTE[off][1], PALETTE[on][1]
        for j in range(1, SHADES + 1):
            t = j / (SHADES + 1)
            rgb = (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
                   round(a[2] + (b[2] - a[2]) * t))
            out[f"{on} {j}"] = (10 + first * SHADES + j - 1, rgb)
    return out


PALETTE.update(_ramps())
COLOURS = [rgb for _, rgb in sorted(PALETTE.values())]
# which edges a topology joins: (left-right, top-bottom) as the colour of their bars, None if not
JOINS: dict[str, tuple[str | None, str | None]] = {
    "plane": (None, None), "cylinder": ("join", None), "torus": ("join", "join"),
    "moebius": ("twist", None), "klein": ("twist", "join"), "projective": ("twist", "twist"),
}

MAX_PIXELS = 1 << 27  # 134,217,728: a 4095 x 4095 board with three panels is about 58 million
SVG_MAX_CELLS = 1 << 14  # 128 x 128: one element a cell
TARGET = 640  # pixels across the larger side of a board, when cells are not already 32 or 1
SUFFIXES = (".png", ".svg")
LINE = font.HEIGHT + 2  # font pixels from one line of notes to the next


class ImageError(CountloError):
    """A picture that cannot be written as asked (format, size, file)."""


@dataclass(frozen=True)
class Panel:
    """One board drawn: `rows` are C-bit row ints; set cells take colour `on`, others `off`
    (names in PALETTE). With `values` (a state 0..states-1 per cell in reading order) the rows
    are not read and state v takes `shade(off, on, v, states)`."""

    title: str
    rows: Sequence[int]
    on: str = "lit"
    off: str = "dark"
    values: Sequence[int] | None = None
    states: int = 2
    buttons: bool = False  # the values are per button (presses, quiet patterns), not per light


def shade(off: str, on: str, v: int, k: int) -> str:
    """The colour name of state v of k on a panel coloured from `off` (0) to `on` (k - 1); a hole
    (v < 0: no cell there) is the background."""
    if v < 0:
        return "background"
    if v == 0:
        return off
    if v >= k - 1:
        return on
    return f"{on} {min(SHADES, max(1, round(v * (SHADES + 1) / (k - 1))))}"


@dataclass(frozen=True)
class Picture:
    """Panels of one shape, side by side (wrapping into a grid beyond four), a legend of
    (colour, label) swatches and lines of notes. A `Network` shape (a graph or a press map that
    is not a grid) is laid out and written by `netimage`."""

    shape: Shape | Network
    panels: Sequence[Panel]
    legend: Sequence[tuple[str, str]] = ()
    notes: Sequence[str] = ()


@dataclass(frozen=True)
class Layout:
    """Where everything goes, in pixels."""

    shape: Shape
    pitch: int
    grid: bool
    labels: int  # scale of the column letters and row numbers, 0 for none
    scale: int  # scale of titles, legend and notes
    margin: int
    gap: int
    per_row: int
    slot_w: int
    gutter: int  # width left of a board for row numbers
    title_h: int
    letters_h: int
    board_w: int
    board_h: int
    width: int
    height: int
    footer_y: int
    notes: tuple[str, ...] = field(default=())
    joins: tuple[str | None, str | None] = (None, None)  # bar colours: left-right, top-bottom

    @property
    def slot_h(self) -> int:
        return self.title_h + self.letters_h + self.board_h

    def slot_origin(self, i: int) -> tuple[int, int]:
        """Top-left pixel of panel i's slot."""
        return slot_at(i, self.per_row, self.margin, self.slot_w, self.slot_h, self.gap)

    def board_origin(self, i: int) -> tuple[int, int]:
        """Top-left pixel of panel i's board (its first grid line when there are grid lines)."""
        x, y = self.slot_origin(i)
        return x + self.gutter, y + self.title_h + self.letters_h

    def cell_box(self, i: int, r: int, c: int) -> tuple[int, int, int]:
        """(x, y, side) of the square coloured for cell (r, c) of panel i."""
        x, y = self.board_origin(i)
        inset = 1 if self.grid else 0
        return x + c * self.pitch + inset, y + r * self.pitch + inset, self.pitch - inset


def slot_at(i: int, per_row: int, margin: int, width: int, height: int, gap: int) -> tuple[int, int]:
    """Top-left pixel of panel i's slot, panels `per_row` a row (a grid's and a network's alike)."""
    row, col = divmod(i, per_row)
    return margin + col * (width + gap), margin + row * (height + gap)


def pitch_for(shape: Shape) -> int:
    """Pixels a cell: 32 up to 20 cells across, one pixel from 640 across, in between so the
    board is about TARGET pixels across."""
    return max(1, min(32, TARGET // max(shape.rows, shape.cols)))


def layout(picture: Picture) -> Layout:
    """The layout of `picture` (raises ImageError above MAX_PIXELS, stating the limit)."""
    shape = picture.shape
    assert isinstance(shape, Shape), "a network is laid out by netimage.layout"
    p = pitch_for(shape)
    grid = p >= 6
    board_w = shape.cols * p + grid
    board_h = shape.rows * p + grid
    ls = 0
    if p >= 14:
        ls = 1 if p < 24 else 2
        if font.text_width(column_letters(shape.cols - 1), ls) > p - 2:
            ls = 0
    s = max(2, min(12, board_w // 160))
    gutter = font.text_width(str(shape.rows), ls) + 3 * ls if ls else 0
    letters_h = font.text_height(ls) + 3 * ls if ls else 0
    title_h = font.text_height(s) + 3 * s
    margin, gap = 4 * s, 6 * s
    n = max(1, len(picture.panels))
    per_row = n if n <= 4 else math.ceil(math.sqrt(n))
    slot_w = max([gutter + board_w] + [font.text_width(t.title, s) for t in picture.panels])
    slot_rows = -(-n // per_row)
    content_w = per_row * slot_w + (per_row - 1) * gap
    legend_w = legend_width(picture.legend, s)
    chars = max(40, content_w // (font.WIDTH * s))
    notes = tuple(line for note in picture.notes for line in wrap(note, chars))
    notes_w = max([0] + [font.text_width(t, s) for t in notes])
    width = 2 * margin + max(content_w, legend_w, notes_w)
    footer_y = margin + slot_rows * (title_h + letters_h + board_h) + slot_rows * gap
    legend_h = (font.text_height(s) + 4 * s) if picture.legend else 0
    height = footer_y + legend_h + len(notes) * LINE * s + 3 * s + margin - gap // 2
    height = max(height, footer_y)
    if width * height > MAX_PIXELS:
        raise ImageError(f"a picture of this {shape} board would be {width} x {height} pixels; "
                         f"the limit is {MAX_PIXELS:,} pixels")
    return Layout(shape, p, grid, ls, s, margin, gap, per_row, slot_w, gutter, title_h, letters_h,
                  board_w, board_h, width, height, footer_y, notes, JOINS[shape.rules.topology])


def check_fits(shape: Shape | Network, panels: int, path: str) -> None:
    """Raise ImageError now if a picture of `panels` panels of `shape` cannot be written to
    `path` (suffix, MAX_PIXELS, SVG_MAX_CELLS), so a command refuses before it solves."""
    kind = check_path(path)
    if isinstance(shape, Network):
        return  # at most MAX_DRAWN nodes (network.check_drawable): always within the limits
    layout(Picture(shape, [Panel("", ())] * panels))
    if kind == "svg" and shape.cells > SVG_MAX_CELLS:
        raise ImageError(f"--image {path}: SVG pictures draw one element a cell and stop at "
                         f"{SVG_MAX_CELLS:,} cells (128 x 128); this board has "
                         f"{shape.cells:,}: write a .png")


def legend_width(legend: Sequence[tuple[str, str]], s: int) -> int:
    side = font.text_height(s)
    return sum(side + 2 * s + font.text_width(label, s) + 5 * s for _, label in legend)


def wrap(text: str, chars: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


# --- writing --------------------------------------------------------------------------------


def check_path(path: str) -> str:
    """The format ('png' or 'svg') of an --image path; ImageError for any other suffix."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIXES:
        raise ImageError(f"--image {path}: the file name must end in .png or .svg")
    check(path, "--image")  # before anything is solved or written
    return suffix[1:]


def save(picture: Picture, path: str) -> Layout:
    """Write `picture` (a grid's: a network's is `netimage.save`) to `path` as PNG or SVG by its
    suffix; returns the layout used."""
    assert isinstance(picture.shape, Shape), "a graph or press map is drawn by netimage.save"
    check_fits(picture.shape, len(picture.panels), path)
    lay = layout(picture)
    write(path, lay.width, lay.height, lambda: _png_rows(picture, lay), lambda: svg(picture, lay))
    return lay


def write(path: str, width: int, height: int, rows: Callable[[], Iterable[bytes]], text: Callable[[], str]) -> None:
    """A drawn picture to `path`, PNG (its rows of palette indices) or SVG (its text) by the
    suffix; a grid's and a network's both (countlo.formats.netimage)."""
    if check_path(path) == "png":
        with replacing(path, "--image", binary=True) as out:
            write_png(cast(BinaryIO, out), width, height, COLOURS, rows())
    else:
        write_text(path, "--image", text())


def index(name: str) -> int:
    return PALETTE[name][0]


def canvas(width: int, height: int) -> list[bytearray]:
    return [bytearray(width) for _ in range(height)]  # index 0 is the background


def fill(canvas: list[bytearray], x: int, y: int, w: int, h: int, colour: int) -> None:
    for yy in range(y, y + h):
        canvas[yy][x:x + w] = bytes([colour]) * w


def _png_rows(picture: Picture, lay: Layout) -> Iterator[bytes]:
    """The picture's pixel rows, top to bottom: per row of panels, a canvas for the titles and
    column letters, then the board rows built from the row ints, then the legend and notes."""
    shape, ink = lay.shape, index("ink")
    W, s = lay.width, lay.scale
    panels = list(picture.panels)
    y = 0
    for top in range(0, len(panels), lay.per_row):
        group = list(enumerate(panels))[top:top + lay.per_row]
        _, y0 = lay.slot_origin(top)
        for _ in range(y, y0):  # margin or gap above this row of panels
            yield bytes(W)
        head = canvas(W, lay.title_h + lay.letters_h)
        gutter = canvas(lay.gutter, lay.board_h) if lay.labels else None
        for i, panel in group:
            x, _ = lay.slot_origin(i)
            font.draw_text(head, x, 0, panel.title, ink, s)
            if lay.labels:
                bx, _ = lay.board_origin(i)
                ls = lay.labels
                for c in range(shape.cols):
                    t = column_letters(c)
                    cx = bx + c * lay.pitch + (lay.pitch - font.text_width(t, ls)) // 2 + 1
                    font.draw_text(head, cx, lay.title_h, t, ink, ls)
        if gutter is not None:
            ls = lay.labels
            for r in range(shape.rows):
                t = str(r + 1)
                ry = r * lay.pitch + (lay.pitch - font.text_height(ls)) // 2 + 1
                font.draw_text(gutter, lay.gutter - 3 * ls - font.text_width(t, ls), ry, t, ink, ls)
        yield from (bytes(row) for row in head)
        yield from _board_rows(group, lay, gutter)
        y = y0 + lay.slot_h
    for _ in range(y, lay.footer_y):
        yield bytes(W)
    foot = canvas(W, lay.height - lay.footer_y)
    draw_footer(foot, picture, lay.scale, lay.margin, lay.notes)
    yield from (bytes(row) for row in foot)


def _segments(panel: Panel, r: int, lay: Layout) -> bytes:
    """Pixels across board row r of a panel (inside the cells, with grid lines if any; the outer
    lines of joined edges in their bar colour)."""
    cols = lay.shape.cols
    if panel.values is not None:
        cells = [index(shade(panel.off, panel.on, v, panel.states))
                 for v in panel.values[r * cols:(r + 1) * cols]]
        if lay.pitch == 1:
            return bytes(cells)
        if lay.grid:
            g = index("grid")
            out = b"".join(bytes([g]) + bytes([c]) * (lay.pitch - 1) for c in cells) + bytes([g])
        else:
            out = b"".join(bytes([c]) * lay.pitch for c in cells)
        return _joined(out, lay)
    bits = format(panel.rows[r], f"0{cols}b")[::-1].encode("ascii")  # b'1' for a set cell, column order
    on, off = index(panel.on), index(panel.off)
    if lay.pitch == 1:
        return bits.translate(bytes.maketrans(b"01", bytes([off, on])))
    if lay.grid:
        g = index("grid")
        cell = {48: bytes([g]) + bytes([off]) * (lay.pitch - 1),
                49: bytes([g]) + bytes([on]) * (lay.pitch - 1)}
        return _joined(b"".join(cell[b] for b in bits) + bytes([g]), lay)
    cell = {48: bytes([off]) * lay.pitch, 49: bytes([on]) * lay.pitch}
    return b"".join(cell[b] for b in bits)


def _joined(row: bytes, lay: Layout) -> bytes:
    """A board row with its outer vertical grid lines in the left-right join's colour."""
    side = lay.joins[0]
    if side is None or not lay.grid:
        return row
    c = bytes([index(side)])
    return c + row[1:-1] + c


def _board_rows(group: list[tuple[int, Panel]], lay: Layout,
                gutter: list[bytearray] | None) -> Iterator[bytes]:
    g = index("grid")
    base = bytearray(lay.width)
    line = edge = bytes(base)
    if lay.grid:  # the horizontal grid lines: one run of grid colour under each board
        ruled, edged = bytearray(base), bytearray(base)
        top = index(lay.joins[1]) if lay.joins[1] is not None else g  # a joined top and bottom edge
        side = index(lay.joins[0]) if lay.joins[0] is not None else g  # ... left and right edge
        for i, _ in group:
            bx, _ = lay.board_origin(i)
            ruled[bx:bx + lay.board_w] = bytes([side]) + bytes([g]) * (lay.board_w - 2) + bytes([side])
            edged[bx:bx + lay.board_w] = bytes([top]) * lay.board_w
        line, edge = bytes(ruled), bytes(edged)
    y = 0
    for r in range(lay.shape.rows):
        row = bytearray(base)
        for i, panel in group:
            bx, _ = lay.board_origin(i)
            row[bx:bx + lay.board_w] = _segments(panel, r, lay)
        for sub in range(lay.pitch):
            if lay.grid and sub == 0:
                out = bytearray(edge if r == 0 else line)
            else:
                out = bytearray(row) if gutter is not None else row
            if gutter is not None:
                for i, _ in group:
                    bx, _ = lay.board_origin(i)
                    out[bx - lay.gutter:bx] = gutter[y]
            yield bytes(out)
            y += 1
    if lay.grid:
        out = bytearray(edge)
        if gutter is not None:
            for i, _ in group:
                bx, _ = lay.board_origin(i)
                out[bx - lay.gutter:bx] = gutter[y]
        yield bytes(out)


def draw_footer(canvas: list[bytearray], picture: Picture, scale: int, margin: int,
                notes: Sequence[str]) -> None:
    """The legend's swatches and the wrapped notes, from the top of `canvas`."""
    s, ink = scale, index("ink")
    x, y = margin, s
    side = font.text_height(s)
    for colour, label in picture.legend:
        fill(canvas, x, y, side, side, index("grid"))
        fill(canvas, x + 1, y + 1, side - 2, side - 2, index(colour))
        font.draw_text(canvas, x + side + 2 * s, y, label, ink, s)
        x += side + 2 * s + font.text_width(label, s) + 5 * s
    if picture.legend:
        y += side + 4 * s
    for note in notes:
        font.draw_text(canvas, margin, y, note, ink, s)
        y += LINE * s


# --- SVG ----------------------------------------------------------------------------------------


def hex_colour(name: str) -> str:
    r, g, b = PALETTE[name][1]  # every shade is in the palette too
    return f"#{r:02x}{g:02x}{b:02x}"


def esc(text: str) -> str:
    """Text for an SVG attribute or element: XML's specials as entities, and control characters
    (which XML cannot hold, even as references; a graph's node names may have them) shown escaped
    as the terminal shows them (countlo.printable)."""
    shown = _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", printable(text))
    return shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")  # no XML 1.0 character (printable shows the controls)


def svg(picture: Picture, lay: Layout) -> str:
    """The picture as an SVG document on the same layout as the PNG: one rect a cell (class
    'cell', data-row / data-col 0-based, fill the cell's colour) inside one group a panel."""
    shape, s = lay.shape, lay.scale
    size = font.text_height(s) * 8 // 7
    text = svg_text
    out = svg_head(lay.width, lay.height)
    for i, panel in enumerate(picture.panels):
        x, y = lay.slot_origin(i)
        bx, by = lay.board_origin(i)
        out.append(f'<g class="panel" data-title="{esc(panel.title)}">')
        out.append(text(x, y, panel.title, size))
        if lay.labels:
            lp = font.text_height(lay.labels) * 8 // 7
            for c in range(shape.cols):
                out.append(text(bx + c * lay.pitch + lay.pitch // 2, y + lay.title_h,
                                column_letters(c), lp, "middle"))
            for r in range(shape.rows):
                out.append(text(bx - 3 * lay.labels, by + r * lay.pitch + lay.pitch // 4,
                                str(r + 1), lp, "end"))
        out.append(f'<rect x="{bx}" y="{by}" width="{lay.board_w}" height="{lay.board_h}" '
                   f'fill="{hex_colour("grid")}"/>')
        on, off = hex_colour(panel.on), hex_colour(panel.off)
        for r in range(shape.rows):
            bits = panel.rows[r] if panel.values is None else 0
            for c in range(shape.cols):
                cx, cy, side = lay.cell_box(i, r, c)
                if panel.values is not None:
                    v = panel.values[r * shape.cols + c]
                    fill = hex_colour(shade(panel.off, panel.on, v, panel.states))
                    state = f' data-state="{v}"'
                else:
                    fill, state = (on if bits >> c & 1 else off), ""
                out.append(f'<rect class="cell" data-row="{r}" data-col="{c}"{state} x="{cx}" y="{cy}" '
                           f'width="{side}" height="{side}" fill="{fill}"/>')
        for n, colour in enumerate(lay.joins):  # the joined edges' bars, as on the PNG
            if colour is None or not lay.grid:
                continue
            bars = ((bx, by, 1, lay.board_h), (bx + lay.board_w - 1, by, 1, lay.board_h)) if n == 0 else (
                (bx, by, lay.board_w, 1), (bx, by + lay.board_h - 1, lay.board_w, 1))
            for x0, y0, w, h in bars:
                out.append(f'<rect class="join" x="{x0}" y="{y0}" width="{w}" height="{h}" '
                           f'fill="{hex_colour(colour)}"/>')
        out.append("</g>")
    out += svg_footer(picture, lay.margin, lay.footer_y, s, lay.notes)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_head(width: int, height: int) -> list[str]:
    """The opening of an SVG picture: the element and its white background."""
    return [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, monospace" '
             f'fill="{hex_colour("ink")}">'),
            f'<rect width="{width}" height="{height}" fill="{hex_colour("background")}"/>']


def svg_text(x: int, y: int, body: str, px: int, anchor: str = "start", cls: str = "") -> str:
    """A line of text whose top is at y (as the PNG font's), `px` pixels high."""
    kind = f' class="{cls}"' if cls else ""
    return (f'<text{kind} x="{x}" y="{y + px * 6 // 8}" font-size="{px}" text-anchor="{anchor}">'
            f"{esc(body)}</text>")


def svg_footer(picture: Picture, margin: int, footer_y: int, s: int, notes: Sequence[str]) -> list[str]:
    """The legend's swatches and the notes, as on the PNG."""
    out = []
    size = font.text_height(s) * 8 // 7
    x, y = margin, footer_y + s
    side = font.text_height(s)
    for colour, label in picture.legend:
        out.append(f'<rect class="swatch" x="{x}" y="{y}" width="{side}" height="{side}" '
                   f'fill="{hex_colour(colour)}" stroke="{hex_colour("grid")}"/>')
        out.append(svg_text(x + side + 2 * s, y, label, size))
        x += side + 2 * s + font.text_width(label, s) + 5 * s
    if picture.legend:
        y += side + 4 * s
    for note in notes:
        out.append(svg_text(margin, y, note, size))
        y += LINE * s
    return out
