"""The Python front door: `import countlo` answers the questions from text, lists, numpy arrays
and graphs, with the rules as keywords, against the command line's answers and brute force."""

from __future__ import annotations

import doctest
import importlib
import itertools
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import countlo
from countlo.errors import CountloError
from countlo.visible import solutions as answers

MODULES = ["countlo", "countlo.library.patterns", "countlo.library.answers", "countlo.library.games"]


@pytest.mark.parametrize("name", MODULES)
def test_every_example_in_the_docstrings_runs(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_every_public_name_has_examples_or_belongs_to_a_class_that_has():
    from countlo.library import answers, games, patterns

    for module in (answers, patterns):
        for name in dir(module):
            obj = getattr(module, name)
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if name in ("on",):  # the front door's own helper, not re-exported
                continue
            assert "Examples:" in (obj.__doc__ or ""), name
    assert "Examples:" in (games.__doc__ or "")


def brute_fewest(board, start, k):
    best = None
    for x in itertools.product(range(k), repeat=board.cells):
        if answers.apply(board, list(start), list(x)) == [0] * board.cells:
            best = sum(x) if best is None else min(best, sum(x))
    return best


@pytest.mark.parametrize("topology, states", [("plane", 2), ("torus", 3), ("klein", 2), ("cylinder", 4)])
def test_a_numpy_start_gives_the_fewest_presses_brute_force_finds(topology, states):
    rng = np.random.default_rng(5)
    for _ in range(4):
        grid = rng.integers(0, states, size=(2, 3))
        f = countlo.fewest(grid, topology=topology, states=states)
        board = f.start.board
        want = brute_fewest(board, f.start.values, states)
        if want is None:
            assert not f.solvable and f.proof is not None
        else:
            assert f.exact and f.count == want == f.lower_bound
            assert answers.apply(board, list(f.start.values), list(f.presses.values)) == [0] * 6
            assert f.presses.array().shape == (2, 3) and f.presses.grid == f.presses.array().tolist()


def test_text_lists_and_arrays_are_the_same_start():
    text = countlo.solve("#.#\n.#.\n#.#")
    lists = countlo.solve([[1, 0, 1], [0, 1, 0], [1, 0, 1]])
    array = countlo.solve(np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]]))
    assert text.presses == lists.presses == array.presses
    assert text.presses.bits == sum(1 << j for j, v in enumerate(text.presses.values) if v)


def test_the_answer_matches_solve_json(run_cli):
    import json

    out = json.loads(run_cli(["solve", "--all-on", "--size", "5x5", "--min", "--json"]).stdout)
    f = countlo.fewest([[1] * 5] * 5)
    assert f.count == out["count"] and f.exact == out["exact"]


def test_a_target_and_a_graph():
    s = countlo.solve([[0, 0], [0, 0]], target="lit")
    assert s.solvable and s.target is not None and s.target.count == 4
    g = countlo.solve(["a", "b"], graph="a b\nb c")
    assert g.start.cells == ["a", "b"] and g.presses.cells == ["a"]
    assert not countlo.solve(["a"], graph="a b\nb c", rule="sigma").solvable
    assert answers.apply(g.start.board, list(g.start.values), list(g.presses.values)) == [0, 0, 0]


def test_hardest_classes_quiet_and_generate_agree_with_each_other():
    m = countlo.hardest("4x4")
    assert m.exact and m.hardest is not None
    assert countlo.fewest(m.hardest.start).count == m.lower == 7
    quiet = countlo.quiet("4x4")
    assert len(quiet) == 4 and all(countlo.solve([[0] * 4] * 4).solvable for _ in quiet)
    classes = countlo.classes([[1] * 4] * 4)
    assert sum(c.size for c in classes) == len(countlo.solutions([[1] * 4] * 4)) == 16
    g = countlo.generate("5x5", seed=3, presses=4)
    assert countlo.fewest(g.start).count == 4 == g.count


def test_pictures_and_text_for_a_notebook():
    s = countlo.solve([[1, 1, 0], [1, 0, 0], [0, 0, 0]])
    svg = s._repr_svg_()
    assert svg is not None and ET.fromstring(svg).tag.endswith("svg")
    assert "A1" in str(s) and "<table>" in s.start._repr_html_()
    drawn = ET.fromstring(countlo.solve([[1, 2]], states=3, topology="torus")._repr_svg_())
    cells = [e for e in drawn.iter() if e.get("class") == "cell"]
    assert [e.get("data-state") for e in cells[:2]] == ["1", "2"]  # the start panel, a shade per state
    graph = ET.fromstring(countlo.solve(["a"], graph="a b")._repr_svg_())  # a graph: named circles
    nodes = [e for e in graph.iter() if e.get("class") == "node"]
    assert [(e.get("data-name"), e.get("data-state")) for e in nodes[:2]] == [("a", "1"), ("b", "0")]
    big = "\n".join(f"v{i} v{i + 1}" for i in range(200))  # 201 nodes: more than a picture shows
    assert countlo.solve(["v0"], graph=big)._repr_svg_() is None
    assert countlo.lights([[1, 2]], states=3)._repr_html_().count("<td>") == 2


@pytest.mark.parametrize("start, rules, words", [
    ([[1, 2], [1]], {}, "rectangle"),
    ([[1, 3]], {"states": 3}, "outside 0..2"),
    (["z"], {"graph": "a b"}, "unknown node 'z'"),
    ("#.\n#", {}, "1"),
])
def test_a_bad_start_is_one_clear_error(start, rules, words):
    with pytest.raises(CountloError, match=words):
        countlo.solve(start, **rules)


def test_an_unknown_rule_keyword_is_named():
    with pytest.raises(TypeError, match="'topolgy'"):
        countlo.solve([[1]], topolgy="torus")


def test_a_simulated_game_and_its_record_replay_to_the_same_board():
    game = countlo.simulate("6x6", seed=4)
    assert game.solved
    found = countlo.reconstruct(game.record, "exact")
    assert found.possible == 1
    post = countlo.posterior(game.record)
    assert post.count == 1


def test_import_countlo_stays_light():
    out = subprocess.run([sys.executable, "-c", "import countlo, sys; print(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert "numpy" not in out and "countlo.visible" not in out and "typing" not in out
