"""One family of narrow exceptions for a user's mistakes; the CLI prints each as one line."""

from __future__ import annotations

from countlo.i18n import _, ngettext


class CountloError(Exception):
    """A user's mistake or an impossible request: printed as one line, never a traceback."""

    exit_code = 2


class BadSizeError(CountloError, ValueError):
    """A board size that is malformed or out of range."""


class BadCellError(CountloError, ValueError):
    """A cell name that does not parse, or names a cell off the board."""


class BadCountError(CountloError, ValueError):
    """A count that cannot have been shown; `possible` lists the counts that could have been."""

    def __init__(self, message: str, possible: tuple[int, ...] = ()):
        super().__init__(message)
        self.possible = tuple(possible)


class BadRuleError(CountloError, ValueError):
    """A topology, click rule, number of states, target or graph that is unknown or malformed."""


class BoardFormatError(CountloError, ValueError):
    """A visible board (text grid, cell list) that does not parse; names the line."""


class TranscriptError(CountloError, ValueError):
    """A transcript that does not parse; `problems` holds (line number, message) pairs."""

    def __init__(self, problems: list[tuple[int, str]], source: str = "transcript"):
        self.problems = list(problems)
        self.source = source
        first = self.problems[0] if self.problems else (0, _("empty"))
        extra = len(self.problems) - 1
        more = ngettext(" (and {n} more problem)", " (and {n} more problems)", extra).format(n=extra) \
            if extra else ""
        super().__init__(f"{source}:{first[0]}: {first[1]}{more}")


class ContradictionError(CountloError):
    """Counts that no hidden board can explain."""

    exit_code = 1


class EngineLimitError(CountloError):
    """The exact engine cannot follow this game: the rules' clicks reach so far that its tables
    would pass the stated memory limit (known up front, or only once a record opens them)."""


class OracleError(CountloError):
    """A game program that died, hung, or answered something that is not a count."""

    exit_code = 1


class TranscriptFileError(CountloError):
    """A transcript file that cannot be created, opened or decoded."""
