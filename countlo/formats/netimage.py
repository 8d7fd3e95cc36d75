"""Pictures of graphs and of press maps that are not grids: the panels `figures` builds (start,
target, presses, a proof's weights, quiet patterns) drawn on a `network.Network` instead of a grid,
as PNG or SVG, with the titles, legend and notes of `image`.

A light (a graph's node) is a circle filled with its state's shade, its name on a white label to
its right; a press map's button is a small square, joined by a line to each light it changes
(the amount written on the line when it is not 1 on a board of more than two states). A graph's
edge is a grey line, a directed arc one with a black arrowhead at the node it changes. On a panel
of presses the buttons take the press shades and the lights stay white; on the other panels the
lights are shaded and the buttons white. Everything is drawn on one canvas of palette indices in
a fixed order (frames, lines, amounts, names, arrowheads, then nodes), so the same picture is
the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from countlo.formats import font
from countlo.formats.image import (
    LINE,
    Panel,
    Picture,
    canvas,
    draw_footer,
    esc,
    fill,
    hex_colour,
    index,
    legend_width,
    shade,
    slot_at,
    svg_footer,
    svg_head,
    svg_text,
    wrap,
    write,
)
from countlo.formats.network import Network

BIG = 60  # up to this many nodes: radius 10 and names at font scale 2; beyond: 7 and 1


@dataclass(frozen=True)
class NetLayout:
    """Where everything goes, in pixels: panels side by side as `image.Layout` places grids."""

    net: Network
    radius: int
    labels: int  # font scale of the names
    scale: int  # titles, legend and notes
    margin: int
    gap: int
    per_row: int
    slot_w: int
    title_h: int
    board_w: int
    board_h: int
    width: int
    height: int
    footer_y: int
    pad: tuple[int, int, int, int]  # left, top, right, bottom: from a board's edge to its points
    notes: tuple[str, ...]
    left: frozenset[int]  # the points whose names go on their left (their lines leave rightwards)

    @property
    def slot_h(self) -> int:
        return self.title_h + self.board_h

    def slot_origin(self, i: int) -> tuple[int, int]:
        return slot_at(i, self.per_row, self.margin, self.slot_w, self.slot_h, self.gap)

    def board_origin(self, i: int) -> tuple[int, int]:
        x, y = self.slot_origin(i)
        return x, y + self.title_h

    def centre(self, i: int, p: int) -> tuple[int, int]:
        """The pixel at the centre of point p (a light, then the buttons) on panel i."""
        bx, by = self.board_origin(i)
        x, y = self.net.points[p]
        left, top, right, bottom = self.pad
        return (bx + left + round(x * (self.board_w - left - right)),
                by + top + round(y * (self.board_h - top - bottom)))

    @property
    def half(self) -> int:
        """Half the side of a button's square."""
        return self.radius * 3 // 4


def layout(picture: Picture) -> NetLayout:
    net = picture.shape
    assert isinstance(net, Network)
    n = len(net.points)
    r, ls = (10, 2) if n <= BIG else (7, 1)
    label_w = max(font.text_width(name, ls) for name in net.names)
    label_h = font.text_height(ls)
    slot_w = 2 * r + 4 + label_w + 10  # a node, its name, a little air
    slot_h = max(2 * r, label_h) + 12
    across, down = net.extent
    side = r + 5 + label_w + 3  # a name beside its node (on a graph's, on either side)
    pad = (r + 3 if net.buttons else side, max(r, label_h // 2 + 1) + 3, side, max(r, label_h // 2 + 1) + 3)
    board_w = pad[0] + pad[2] + round(across * slot_w)
    board_h = pad[1] + pad[3] + round(down * (slot_h if net.buttons else slot_w))
    s = max(2, min(4, board_w // 200))
    title_h = font.text_height(s) + 3 * s
    margin, gap = 4 * s, 6 * s
    panels = max(1, len(picture.panels))
    per_row = panels if panels <= 4 else math.ceil(math.sqrt(panels))
    slot = max([board_w] + [font.text_width(p.title, s) for p in picture.panels])
    rows = -(-panels // per_row)
    content_w = per_row * slot + (per_row - 1) * gap
    chars = max(40, content_w // (font.WIDTH * s))
    notes = tuple(line for note in picture.notes for line in wrap(note, chars))
    notes_w = max([0] + [font.text_width(t, s) for t in notes])
    width = 2 * margin + max(content_w, legend_width(picture.legend, s), notes_w)
    footer_y = margin + rows * (title_h + board_h) + rows * gap
    legend_h = (font.text_height(s) + 4 * s) if picture.legend else 0
    height = max(footer_y, footer_y + legend_h + len(notes) * LINE * s + 3 * s + margin - gap // 2)
    lay = NetLayout(net, r, ls, s, margin, gap, per_row, slot, title_h, board_w, board_h, width,
                    height, footer_y, pad, notes, frozenset())
    return lay if net.buttons else replace(lay, left=_left_named(lay))


def _left_named(lay: NetLayout) -> frozenset[int]:
    """The nodes of a graph whose names go on their left: those whose name on the right would
    cover more other nodes, or as many and more of their own lines (a press map's lines run up
    and down: names on the right)."""
    net, r = lay.net, lay.radius
    at = [lay.centre(0, p) for p in range(len(net.points))]
    h = font.text_height(lay.labels) // 2 + 1
    pull = [0] * len(at)
    for a, b, _amount, _directed in net.links:
        pull[a] += (at[b][0] > at[a][0]) - (at[b][0] < at[a][0])
        pull[b] += (at[a][0] > at[b][0]) - (at[a][0] < at[b][0])

    def covered(p: int, x0: int, x1: int) -> int:
        y = at[p][1]
        return sum(1 for q, (x, yq) in enumerate(at)
                   if q != p and x0 - r <= x <= x1 + r and abs(yq - y) <= h + r)

    out = set()
    for p, (x, _y) in enumerate(at):
        w = font.text_width(net.names[p], lay.labels) + 4
        right = (2 * covered(p, x + r, x + r + w), max(0, pull[p]))
        left = (2 * covered(p, x - r - w, x - r), max(0, -pull[p]))
        if left < right:
            out.add(p)
    return frozenset(out)


def save(picture: Picture, path: str) -> NetLayout:
    """Write `picture` (a Network's) to `path` as PNG or SVG by its suffix."""
    lay = layout(picture)
    write(path, lay.width, lay.height, lambda: png_rows(picture, lay), lambda: svg(picture, lay))
    return lay


# --- what each point looks like ---------------------------------------------------------------


def _looks(panel: Panel, net: Network, p: int) -> tuple[str, str, int | None]:
    """(fill, outline, state) of point p on a panel: shaded by the panel's values when they are
    its values (a light's on a panel of lights, a button's on a panel of presses; a graph's node
    on both), white with a grey outline otherwise."""
    button = p >= net.cells
    if net.buttons and button != panel.buttons:
        return "background", "grid", None
    assert panel.values is not None
    v = panel.values[p - net.cells if button else p]
    return shade(panel.off, panel.on, v, panel.states), "ink", v


def _arrow(a: tuple[int, int], b: tuple[int, int], r: int) -> tuple[tuple[int, int], ...]:
    """The arrowhead of the arc a -> b: its tip on b's circle, its base r + 4 back along the arc."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    tip = (b[0] - ux * (r + 1), b[1] - uy * (r + 1))
    length, wide = r + 4, r // 2 + 2
    base = (tip[0] - ux * length, tip[1] - uy * length)
    return ((round(tip[0]), round(tip[1])), (round(base[0] - uy * wide), round(base[1] + ux * wide)),
            (round(base[0] + uy * wide), round(base[1] - ux * wide)))


def _amount_at(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Where a link's amount is written: a third of the way from the light (b) to the button."""
    return round(b[0] + (a[0] - b[0]) / 3), round(b[1] + (a[1] - b[1]) / 3)


def _label_at(lay: NetLayout, p: int, centre: tuple[int, int]) -> tuple[int, int]:
    """Top-left of point p's name: to the right of its circle or square (left, for the nodes in
    lay.left), centred on it."""
    side = lay.half if p >= lay.net.cells else lay.radius
    y = centre[1] - font.text_height(lay.labels) // 2
    if p in lay.left:
        return centre[0] - side - 4 - font.text_width(lay.net.names[p], lay.labels), y
    return centre[0] + side + 4, y


# --- PNG --------------------------------------------------------------------------------------


def _disc(cv: list[bytearray], cx: int, cy: int, r: int, colour: int) -> None:
    for dy in range(-r, r + 1):
        half = math.isqrt(r * r - dy * dy + r)  # + r: a rounder edge than the exact circle
        fill(cv, cx - half, cy + dy, 2 * half + 1, 1, colour)


def _line(cv: list[bytearray], a: tuple[int, int], b: tuple[int, int], colour: int) -> None:
    """A line two pixels wide from a to b (stepping along its longer axis)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    steps = max(abs(dx), abs(dy), 1)
    thick = (1, 0) if abs(dy) > abs(dx) else (0, 1)
    for t in range(steps + 1):
        x = a[0] + (2 * dx * t + steps) // (2 * steps)
        y = a[1] + (2 * dy * t + steps) // (2 * steps)
        cv[y][x] = colour
        cv[y + thick[1]][x + thick[0]] = colour


def _triangle(cv: list[bytearray], pts: Sequence[tuple[int, int]], colour: int) -> None:
    (x0, y0), (x1, y1), (x2, y2) = pts
    area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
    if area == 0:
        return
    for y in range(min(y0, y1, y2), max(y0, y1, y2) + 1):
        for x in range(min(x0, x1, x2), max(x0, x1, x2) + 1):
            w0 = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
            w1 = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
            w2 = (x0 - x2) * (y - y2) - (y0 - y2) * (x - x2)
            if (w0 >= 0 and w1 >= 0 and w2 >= 0) or (w0 <= 0 and w1 <= 0 and w2 <= 0):
                cv[y][x] = colour


def _frame(cv: list[bytearray], x: int, y: int, w: int, h: int, colour: int) -> None:
    fill(cv, x, y, w, 1, colour)
    fill(cv, x, y + h - 1, w, 1, colour)
    fill(cv, x, y, 1, h, colour)
    fill(cv, x + w - 1, y, 1, h, colour)


def _tag(cv: list[bytearray], x: int, y: int, text: str, scale: int) -> None:
    """Text in ink on a white box one pixel wider all round (readable over lines)."""
    fill(cv, x - 1, y - 1, font.text_width(text, scale) + 2, font.text_height(scale) + 2, index("background"))
    font.draw_text(cv, x, y, text, index("ink"), scale)


def png_rows(picture: Picture, lay: NetLayout) -> list[bytes]:
    net, ink, grid = lay.net, index("ink"), index("grid")
    cv = canvas(lay.width, lay.height)
    r, h = lay.radius, lay.half
    for i, panel in enumerate(picture.panels):
        x, y = lay.slot_origin(i)
        font.draw_text(cv, x, y, panel.title, ink, lay.scale)
        bx, by = lay.board_origin(i)
        _frame(cv, bx, by, lay.board_w, lay.board_h, grid)
        at = [lay.centre(i, p) for p in range(len(net.points))]
        heads = []
        for a, b, _amount, directed in net.links:
            if directed:
                head = _arrow(at[a], at[b], r)
                _line(cv, at[a], ((head[1][0] + head[2][0]) // 2, (head[1][1] + head[2][1]) // 2), grid)
                heads.append(head)
            else:
                _line(cv, at[a], at[b], grid)
        if net.states > 2:
            for a, b, amount, _directed in net.links:
                if amount != 1:
                    ax, ay = _amount_at(at[a], at[b])
                    text = str(amount)
                    _tag(cv, ax - font.text_width(text, lay.labels) // 2,
                         ay - font.text_height(lay.labels) // 2, text, lay.labels)
        for p, name in enumerate(net.names):
            _tag(cv, *_label_at(lay, p, at[p]), name, lay.labels)
        for head in heads:  # over the names: an arrowhead is never hidden
            _triangle(cv, head, ink)
        for p in range(len(net.points)):
            colour, outline, _v = _looks(panel, net, p)
            cx, cy = at[p]
            if p >= net.cells:
                fill(cv, cx - h, cy - h, 2 * h + 1, 2 * h + 1, index(outline))
                fill(cv, cx - h + 1, cy - h + 1, 2 * h - 1, 2 * h - 1, index(colour))
            else:
                _disc(cv, cx, cy, r, index(outline))
                _disc(cv, cx, cy, r - 1, index(colour))
    foot = cv[lay.footer_y:]
    draw_footer(foot, picture, lay.scale, lay.margin, lay.notes)
    return [bytes(row) for row in cv[:lay.footer_y]] + [bytes(row) for row in foot]


# --- SVG --------------------------------------------------------------------------------------


def svg(picture: Picture, lay: NetLayout) -> str:
    """The picture as SVG on the same layout as the PNG: in each panel's group, one `line`
    (class 'link', data-from / data-to the names) per edge, arc or button-to-light change, one
    `polygon` (class 'arrow') per arc, one `circle` (class 'node') per light and one `rect`
    (class 'button') per press map button, each with data-name and, when shaded, data-state, and
    one `text` (class 'name') per name."""
    net, s, r, h = lay.net, lay.scale, lay.radius, lay.half
    size = font.text_height(s) * 8 // 7
    px = font.text_height(lay.labels) * 8 // 7
    grid, ink, white = hex_colour("grid"), hex_colour("ink"), hex_colour("background")
    names = net.names
    out = svg_head(lay.width, lay.height)
    for i, panel in enumerate(picture.panels):
        x, y = lay.slot_origin(i)
        bx, by = lay.board_origin(i)
        out.append(f'<g class="panel" data-title="{esc(panel.title)}">')
        out.append(svg_text(x, y, panel.title, size))
        out.append(f'<rect class="frame" x="{bx}" y="{by}" width="{lay.board_w}" height="{lay.board_h}" '
                   f'fill="none" stroke="{grid}"/>')
        at = [lay.centre(i, p) for p in range(len(net.points))]
        arrows = []
        for a, b, amount, directed in net.links:
            end = at[b]
            head = _arrow(at[a], at[b], r) if directed else None
            if head is not None:
                end = ((head[1][0] + head[2][0]) // 2, (head[1][1] + head[2][1]) // 2)
            out.append(f'<line class="link" data-from="{esc(names[a])}" data-to="{esc(names[b])}" '
                       f'data-amount="{amount}" x1="{at[a][0]}" y1="{at[a][1]}" x2="{end[0]}" y2="{end[1]}" '
                       f'stroke="{grid}" stroke-width="2"/>')
            if head is not None:
                points = " ".join(f"{px_},{py_}" for px_, py_ in head)
                arrows.append(f'<polygon class="arrow" points="{points}" fill="{ink}"/>')
        if net.states > 2:
            for a, b, amount, _directed in net.links:
                if amount != 1:
                    ax, ay = _amount_at(at[a], at[b])
                    out.append(svg_text(ax, ay - font.text_height(lay.labels) // 2, str(amount), px,
                                        "middle", "amount"))
        for p, name in enumerate(names):
            lx, ly = _label_at(lay, p, at[p])
            out.append(f'<rect class="label" x="{lx - 1}" y="{ly - 1}" '
                       f'width="{font.text_width(name, lay.labels) + 2}" '
                       f'height="{font.text_height(lay.labels) + 2}" fill="{white}"/>')
            out.append(svg_text(lx, ly, name, px, "start", "name"))
        out += arrows
        for p, name in enumerate(names):
            colour, outline, v = _looks(panel, net, p)
            state = "" if v is None else f' data-state="{v}"'
            cx, cy = at[p]
            if p >= net.cells:
                out.append(f'<rect class="button" data-name="{esc(name)}"{state} x="{cx - h}" y="{cy - h}" '
                           f'width="{2 * h + 1}" height="{2 * h + 1}" fill="{hex_colour(colour)}" '
                           f'stroke="{hex_colour(outline)}"/>')
            else:
                out.append(f'<circle class="node" data-name="{esc(name)}"{state} cx="{cx}" cy="{cy}" '
                           f'r="{r}" fill="{hex_colour(colour)}" stroke="{hex_colour(outline)}"/>')
        out.append("</g>")
    out += svg_footer(picture, lay.margin, lay.footer_y, s, lay.notes)
    out.append("</svg>")
    return "\n".join(out) + "\n"
