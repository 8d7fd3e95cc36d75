"""The language countlo speaks: English by default, Simplified Chinese on request.

Every sentence a player reads is marked in the source: `_("...")` for a sentence, `ngettext`
for one that depends on a number ("1 click" / "2 clicks"; Chinese has one form), and `N_` for a
constant that is translated where it is shown (help texts, the command table). Placeholders are
named, `_("{n} boards left").format(n=...)`, so a translation may put them in another order.

The language is chosen once per run (`use`): `--lang zh|en`, else the usual environment
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG: the first one set decides; zh_CN.UTF-8, zh_TW, zh:en all
mean Chinese), else English. Catalogues live in countlo/locale/<code>/LC_MESSAGES/countlo.mo,
compiled from the .po beside them (Babel extracts and compiles them; see docs/CONTRIBUTING.md). Cell names
(A1, C4), transcripts and the hand formats are the same in every language.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)

if TYPE_CHECKING:
    import gettext as _gettext
    from collections.abc import Mapping

DOMAIN = "countlo"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")

# --lang value -> the catalogue's locale code (None: the source's own English).
LANGUAGES: dict[str, str | None] = {"en": None, "zh": "zh_CN"}
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

# English needs no catalogue: the stdlib gettext module is imported, and the .mo read, only when
# another language is chosen, so `countlo solve` in English starts as fast as before.
_translation: _gettext.NullTranslations | None = None
_language = "en"


def _code(item: str) -> str | None:
    """'zh_CN.UTF-8' -> 'zh', 'en_GB' / 'C' / 'POSIX' -> 'en', anything else -> None."""
    base = item.split(".")[0].split("@")[0].strip().lower()
    if base.startswith("zh"):
        return "zh"
    if base.startswith("en") or base in ("c", "posix"):
        return "en"
    return None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: the first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG
    that is set decides (LANGUAGE may list several, 'fr:zh_CN': the first we speak wins);
    a language countlo does not speak, or none, means English."""
    env = os.environ if environ is None else environ
    for var in ENVIRONMENT:
        value = env.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = _code(item)
            if code is not None:
                return code
        return "en"
    return "en"


def use(lang: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Speak `lang` ('zh' or 'en'; None: what the environment asks for) from now on; returns
    the language chosen. A missing catalogue falls back to English."""
    chosen = lang if lang is not None else from_environment(environ)
    if chosen not in LANGUAGES:
        raise ValueError(f"unknown language {chosen!r}: choose from {', '.join(LANGUAGES)}")
    code = LANGUAGES[chosen]
    if code is None:
        _set(None, chosen)
    else:
        import gettext  # noqa: PLC0415  (English never loads a catalogue; start-up: bench/bench_startup.py)

        _set(gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True), chosen)
    return chosen


class speaking:
    """`with speaking(lang):` speaks `lang` inside the block only, then what was spoken before."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.saved: tuple[_gettext.NullTranslations | None, str] = (None, "en")

    def __enter__(self) -> None:
        self.saved = _translation, _language
        use(self.lang)

    def __exit__(self, *exc: object) -> None:
        _set(*self.saved)


def _set(translation: _gettext.NullTranslations | None, lang: str) -> None:
    global _translation, _language
    _translation, _language = translation, lang


def language() -> str:
    """The language in use: 'en' or 'zh'."""
    return _language


def _(message: str) -> str:
    """`message` in the language in use."""
    return message if _translation is None else _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence for the number `n` (English: singular for 1, else plural)."""
    if _translation is None:
        return singular if n == 1 else plural
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a constant for extraction; it is translated with _() where it is shown."""
    return message


# The C library's words for the file errors people meet, marked here so they are translated
# (Python gives them in English whatever the locale); any other error keeps the system's words.
_ERRNO = {2: N_("No such file or directory"), 13: N_("Permission denied"), 17: N_("File exists"),
          20: N_("Not a directory"), 21: N_("Is a directory"), 28: N_("No space left on device"),
          30: N_("Read-only file system")}


def reason(error: BaseException) -> str:
    """Why a file could not be read or written, in the language spoken: an OSError's strerror
    (ENOENT, EACCES, ... translated), else the error's own text."""
    strerror = getattr(error, "strerror", None)
    if not strerror:
        return str(error)
    known = _ERRNO.get(getattr(error, "errno", None) or 0)
    return _(known) if known is not None and strerror == known else strerror


def width(text: str) -> int:
    """The columns `text` takes in a terminal: two for a wide (Chinese) character, none for a
    combining mark, one otherwise (the same widths prompt_toolkit's get_cwidth gives them)."""
    if text.isascii():
        return len(text)
    import unicodedata  # noqa: PLC0415  (English text never needs it)

    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def ljust(text: str, columns: int) -> str:
    """`text` padded on the right to `columns` terminal columns."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """`text` padded on the left to `columns` terminal columns."""
    return " " * max(0, columns - width(text)) + text


# Line breaking by the CJK kinsoku rule: closing punctuation stays with what it follows (never
# starts a line), opening punctuation with what it precedes (never ends one).
NO_BREAK_BEFORE = "，。、；：？！）》」』】〕〉”’"
NO_BREAK_AFTER = "（《「『【〔〈“‘"

# The break before an atom of `fill`: a good one, or one the kinsoku rule forbids, taken only
# when a line has no other place to break.
_GOOD, _LAST_RESORT = 2, 1


def split_atoms(text: str) -> list[tuple[str, int]]:
    """`text` cut where a line may break: (atom, how good the break before it is). A line may
    break after a space and on either side of a wide (Chinese) character, which is written
    without spaces, but not inside an English word; a break putting closing punctuation at the
    start of a line or opening punctuation at its end is a last resort."""
    atoms: list[tuple[str, int]] = []
    atom, strength, before = "", _GOOD, ""  # before: the last character that is not a space
    for ch in text:
        if atom and ch != " ":
            p = atom[-1]
            if p == " " or width(ch) == 2 or width(p) == 2:
                atoms.append((atom, strength))
                atom = ""
                strength = _LAST_RESORT if ch in NO_BREAK_BEFORE or before in NO_BREAK_AFTER else _GOOD
        atom += ch
        if ch != " ":
            before = ch
    if atom or not atoms:
        atoms.append((atom, strength))
    return atoms


def fill(text: str, columns: int) -> list[str]:
    """`text` broken into lines of at most `columns` terminal columns (a longer word stays whole):
    at spaces, and between Chinese characters, which are written without spaces; not before
    closing punctuation nor after opening punctuation ('rowcol，' and '（rowcol' stay whole),
    unless that is the only break that keeps a line within `columns`."""
    lines: list[str] = []
    line: list[tuple[str, int]] = []  # the atoms of the line being filled

    def joined(atoms: list[tuple[str, int]]) -> str:
        return "".join(piece for piece, _strength in atoms)

    for atom in split_atoms(text):
        line.append(atom)
        while len(line) > 1 and width(joined(line).rstrip()) > columns:
            good = [k for k in range(1, len(line)) if line[k][1] == _GOOD]
            at = len(line) - 1  # the latest break, unless a good one leaves a rest that fits
            if good and width(joined(line[good[-1]:]).strip()) <= columns:
                at = good[-1]
            lines.append(joined(line[:at]).rstrip())
            line = [(line[at][0].lstrip(" "), line[at][1]), *line[at + 1:]]
    if joined(line).strip() or not lines:
        lines.append(joined(line).rstrip())
    return lines


__all__ = ["DOMAIN", "LANGUAGES", "LOCALE_DIR", "NO_BREAK_AFTER", "NO_BREAK_BEFORE", "N_", "_", "fill",
           "from_environment", "language", "ljust", "ngettext", "reason", "rjust", "speaking", "use", "width"]
