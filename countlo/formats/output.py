"""Writing a user's output files: checked before anything is written, never through a symbolic
link, whole or not at all.

A command with several outputs (`solve --out F --image G`) calls `check` on every one of them
before it writes the first, so a bad second name leaves the first file alone. A regular file is
written under a temporary name beside it and renamed over the name at the end (a full disk or a
crash leaves the old file, never half a new one); a device or pipe the user names (`/dev/null`,
`/dev/stdout`) is written in place. Any other symbolic link is refused in one line, and the name is
opened with O_NOFOLLOW: the user names the file itself, not a link that may point anywhere (a
planted link to ~/.bashrc is not overwritten).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator

from countlo.errors import CountloError
from countlo.i18n import _, reason

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from typing import IO, Any


class OutputError(CountloError):
    """An output file that cannot be written (exit 2): refused before writing, or a write error."""


def _cannot(option: str, path: str, error: BaseException) -> OutputError:
    return OutputError(_("cannot write {option} {path}: {reason}").format(
        option=option, path=path, reason=reason(error)))


def _link(option: str, path: str) -> OutputError:
    return OutputError(_("{option} {path} is a symbolic link; name the file itself (nothing was "
                         "written)").format(option=option, path=path))


def _special(path: str) -> bool:
    """True for an existing device, pipe or socket: written in place, never renamed over."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


_pending: list[list[tuple[str, str]]] = []  # (temporary, final name) of the files `together` renames at its end


@contextlib.contextmanager
def together() -> Iterator[None]:
    """Inside this block (`countlo.cli.main` runs every command in one), the files `replacing`
    writes are renamed into place only when the block ends without an exception: a command that
    fails on its second output (a full disk) leaves the first one as it was too."""
    _pending.append([])
    try:
        yield
    except BaseException:
        for temporary, _path in _pending.pop():
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    done = _pending.pop()
    for i, (temporary, path) in enumerate(done):
        try:
            os.replace(temporary, path)
        except OSError as e:
            for rest, _ in done[i:]:
                with contextlib.suppress(OSError):
                    os.unlink(rest)
            raise OutputError(_("cannot write {path}: {reason}").format(path=path, reason=reason(e))) from None


def check(path: str, option: str) -> None:
    """Refuse in one line an output that cannot be written: a symbolic link, a folder, a missing
    or read-only folder, a read-only file, a name with a NUL character. Nothing is created."""
    if "\0" in path:
        raise _cannot(option, path.replace("\0", "\\0"), ValueError(_("a file name cannot hold a NUL character")))
    if os.path.islink(path) and not _special(path):
        raise _link(option, path)
    if os.path.isdir(path):
        raise _cannot(option, path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
    if _special(path):
        if not os.access(path, os.W_OK):
            raise _cannot(option, path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        raise _cannot(option, path, FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT)))
    if not os.path.isdir(folder):
        raise _cannot(option, path, NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)))
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise _cannot(option, path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))


def _open_in_place(path: str, binary: bool) -> IO[Any]:
    # a link to a device (/dev/stdout) is followed; any other link fails here with ELOOP
    nofollow = 0 if _special(path) else getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | nofollow, 0o666)
    return os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")


@contextlib.contextmanager
def replacing(path: str, option: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write `path`'s new content into; on leaving the block it replaces `path` whole
    (or, for a device or pipe, was written in place). Any OSError is one line naming the option."""
    check(path, option)
    if _special(path):
        try:
            with _open_in_place(path, binary) as f:
                yield f
        except OSError as e:
            raise _cannot(option, path, e) from None
        return
    import tempfile  # noqa: PLC0415 (start-up: `countlo solve` without --out never needs it)

    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    except OSError as e:
        raise _cannot(option, path, e) from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # as open() would have created it, not mkstemp's 0600
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if os.path.islink(path):  # made a link while we wrote: still not followed, still refused
            check(path, option)
        if _pending:  # renamed with the command's other outputs when it has written them all
            _pending[-1].append((temporary, path))
        else:
            os.replace(temporary, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise _cannot(option, path, e) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_text(path: str, option: str, text: str) -> None:
    """`text` as the whole content of `path` (see `replacing`)."""
    with replacing(path, option) as f:
        f.write(text)


def stream(path: str, option: str) -> IO[str]:
    """`path` opened for writing line by line as results arrive (simulate --records: each line on
    disk as soon as its game ends, so it cannot wait for a rename); never through a link."""
    check(path, option)
    try:
        return _open_in_place(path, binary=False)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _link(option, path) from None
        raise _cannot(option, path, e) from None
