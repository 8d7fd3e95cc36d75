"""Output files: every one checked before the first is written, written whole under a temporary
name, never through a symbolic link; write errors (a full disk) as one line, exit 2, the summary
still printed; a refused resume leaves its file as it was (issue 28, items 3, 5 and 9)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest
from conftest import ROOT

from countlo.formats import output

FULL = "/dev/full"
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")


def digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


# 3: a refused resume changes nothing; a second bad output leaves the first unwritten

@pytest.mark.parametrize("extra", [["--size", "5x5"], ["--topology", "torus"], ["--size", "6x6", "--rule", "x"]])
def test_a_refused_resume_leaves_an_unfinished_transcript_unchanged(run_cli, tmp_path, extra):
    whole = (ROOT / "transcripts" / "6x6-adaptive-seed1.txt").read_bytes()
    tape = tmp_path / "t.txt"
    tape.write_bytes(whole[:-3])  # a crash mid-line: the last line has no newline
    before = digest(tape)
    r = run_cli(["play", "--resume", str(tape), *extra], input="")
    assert r.returncode == 2 and one_line(r.stderr), r.stderr
    assert digest(tape) == before


def test_a_resume_that_is_accepted_still_sets_the_unfinished_line_aside(run_cli, tmp_path):
    whole = (ROOT / "transcripts" / "6x6-adaptive-seed1.txt").read_bytes()
    tape = tmp_path / "t.txt"
    tape.write_bytes(whole[:-3])
    run_cli(["play", "--resume", str(tape), "--plain"], input="quit\n")
    text = tape.read_text()
    assert "set aside an unfinished last line" in text and text.endswith("\n")


def test_solve_writes_no_out_file_when_the_image_cannot_be_written(run_cli, tmp_path):
    out = tmp_path / "o.txt"
    r = run_cli(["solve", "--size", "3x3", "--lit", "1", "--out", str(out), "--image",
                 str(tmp_path / "missing" / "o.png")])
    assert r.returncode == 2 and one_line(r.stderr) and "missing" in r.stderr, r.stderr
    assert not out.exists()


def test_an_image_that_cannot_be_written_leaves_the_old_out_file(run_cli, tmp_path):
    out = tmp_path / "o.txt"
    out.write_text("old\n")
    (tmp_path / "o.png").mkdir()
    r = run_cli(["solve", "--size", "3x3", "--lit", "1", "--out", str(out), "--image", str(tmp_path / "o.png")])
    assert r.returncode == 2 and one_line(r.stderr), r.stderr
    assert out.read_text() == "old\n"


# 9: no output follows a symbolic link

@pytest.mark.parametrize("command", [
    ["solve", "--size", "3x3", "--lit", "1", "--out", "{link}"],
    ["solve", "--size", "3x3", "--lit", "1", "--image", "{link}.png"],
    ["solve", "--size", "3x3", "--states", "3", "--lit", "1", "--out", "{link}"],
    ["replay", str(ROOT / "transcripts" / "6x6-adaptive-seed1.txt"), "--image", "{link}.svg"],
    ["simulate", "--size", "3x3", "--games", "1", "--records", "{link}"],
], ids=lambda c: " ".join(c[:1] + c[-2:-1]))
def test_outputs_refuse_a_symbolic_link_and_leave_its_target(run_cli, tmp_path, command):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = str(tmp_path / "out")
    argv = [a.replace("{link}", link) for a in command]
    os.symlink(target, argv[argv.index(next(a for a in argv if a.startswith(link)))])
    r = run_cli(argv)
    assert r.returncode == 2 and one_line(r.stderr) and "symbolic link" in r.stderr, r.stderr
    assert target.read_text() == "keep me\n"


def test_a_dangling_link_is_not_created_through(tmp_path):
    link = tmp_path / "out.txt"
    os.symlink(tmp_path / "elsewhere.txt", link)
    with pytest.raises(output.OutputError, match="symbolic link"):
        output.write_text(str(link), "--out", "x")
    with pytest.raises(output.OutputError, match="symbolic link"):
        output.stream(str(link), "--records")
    assert not (tmp_path / "elsewhere.txt").exists()


def test_a_link_to_a_device_is_written_in_place(tmp_path):
    link = tmp_path / "null"
    os.symlink(os.devnull, link)
    output.write_text(str(link), "--out", "x\n")  # like --out /dev/stdout: not a file to overwrite
    assert os.path.islink(link)


def test_a_file_is_replaced_whole_and_keeps_no_temporary(tmp_path):
    path = tmp_path / "o.txt"
    path.write_text("old\n")
    with pytest.raises(RuntimeError), output.replacing(str(path), "--out") as f:
        f.write("half")
        raise RuntimeError("the writer failed midway")
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["o.txt"]
    output.write_text(str(path), "--out", "new\n")
    assert path.read_text() == "new\n" and os.listdir(tmp_path) == ["o.txt"]
    assert (path.stat().st_mode & 0o777) == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# 5: write errors are one line, exit 2, and the summary is still printed

@needs_dev_full
def test_simulate_records_on_a_full_disk_is_one_line_after_the_summary(run_cli):
    r = run_cli(["simulate", "--size", "3x3", "--games", "3", "--records", FULL])
    assert r.returncode == 2 and one_line(r.stderr), r.stderr
    assert "cannot write --records /dev/full" in r.stderr
    assert "games" in r.stdout and "solved" in r.stdout  # the summary of the games played


@needs_dev_full
@pytest.mark.parametrize("command", [
    ["solve", "--size", "3x3", "--lit", "1", "--out", FULL],
    ["solve", "--size", "3x3", "--lit", "1", "--image", "{full}.png"],
    ["solve", "--size", "3x3", "--lit", "1", "--image", "{full}.svg"],
    ["solve", "--size", "3x3", "--states", "3", "--lit", "1", "--out", FULL],
])
def test_every_file_writer_says_a_full_disk_in_one_line(run_cli, command, tmp_path):
    for suffix in (".png", ".svg"):  # a link to the device: written in place, as --out /dev/stdout
        os.symlink(FULL, tmp_path / f"full{suffix}")
    r = run_cli([a.replace("{full}", str(tmp_path / "full")) for a in command])
    assert r.returncode == 2 and one_line(r.stderr), r.stderr


@needs_dev_full
@pytest.mark.parametrize("command", [
    ["solve", "--size", "3x3", "--lit", "1"],
    ["simulate", "--size", "3x3", "--games", "2"],
    ["generate", "--size", "3x3", "--seed", "1"],
])
def test_a_full_standard_output_is_one_line(command):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(FULL, "w") as full:
        r = subprocess.run([sys.executable, "-m", "countlo", *command], stdout=full,
                           stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    assert r.returncode == 2 and one_line(r.stderr), r.stderr
    assert "cannot write standard output" in r.stderr


@needs_dev_full
def test_a_transcript_on_a_full_disk_is_one_line(tmp_path):
    from countlo.board import Shape
    from countlo.errors import TranscriptFileError
    from countlo.formats.transcript import Header, Writer

    full = open(FULL, "w", encoding="utf-8")  # noqa: SIM115 (the writer closes it)
    with Writer(FULL, Header.new(Shape(3, 3), "adaptive", None, "exact"), [], full) as writer, \
            pytest.raises(TranscriptFileError, match="cannot write /dev/full: No space left on device"):
        writer.start(3)


def test_a_second_output_that_fails_while_written_leaves_the_first_unwritten(run_cli, tmp_path):
    """The full disk is met only while the picture is written: --out, written first, is renamed
    into place only once every output is written, so it stays as it was."""
    if not os.path.exists(FULL):
        pytest.skip("no /dev/full here")
    out = tmp_path / "o.txt"
    out.write_text("old\n")
    os.symlink(FULL, tmp_path / "full.svg")
    r = run_cli(["solve", "--size", "3x3", "--lit", "1", "--out", str(out), "--image", str(tmp_path / "full.svg")])
    assert r.returncode == 2 and one_line(r.stderr), r.stderr
    assert out.read_text() == "old\n" and sorted(os.listdir(tmp_path)) == ["full.svg", "o.txt"]


def test_a_name_with_a_nul_is_one_line(run_cli, tmp_path):
    r = run_cli(["solve", "--size", "3x3", "--lit", "1", "--out", str(tmp_path / "a\0b")])
    assert r.returncode == 2 and one_line(r.stderr) and "NUL" in r.stderr
    r = run_cli(["solve", str(tmp_path / "a\0b")])
    assert r.returncode == 2 and one_line(r.stderr)
