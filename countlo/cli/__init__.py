"""The command line: `main(argv)` and one module per subcommand."""

from countlo.cli.main import main

__all__ = ["main"]
