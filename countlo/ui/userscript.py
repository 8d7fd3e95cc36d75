"""The userscript of the companion in the page (countlo/ui/countlo.user.js, package data), as
`countlo userscript` writes it: for the port countlo listens on, with any more pages to run on."""

from __future__ import annotations

import re
from importlib import resources

from countlo.ui.listen import DEFAULT_PORT

NAME = "countlo.user.js"
_PORT = re.compile(r"^(  const PORT = )\d+;", re.M)
_MATCH = re.compile(r"^// @run-at ", re.M)


def userscript(port: int = DEFAULT_PORT, matches: tuple[str, ...] = ()) -> str:
    """The script's text, calling 127.0.0.1:`port`, with a @match line for each of `matches`."""
    text = resources.files("countlo.ui").joinpath(NAME).read_text(encoding="utf-8")
    text, n = _PORT.subn(rf"\g<1>{port};", text, count=1)
    if n != 1:
        raise RuntimeError(f"{NAME} has no PORT line")  # the package is broken, not the input
    extra = "".join(f"// @match        {m}\n" for m in matches)
    return _MATCH.sub(lambda m: extra + m.group(0), text, count=1)
