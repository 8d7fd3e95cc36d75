"""The command line: `main(argv)` and one module per subcommand."""

from countlo.cli.threads import single_threaded

single_threaded()  # before anything imports numpy (see countlo.cli.threads)

from countlo.cli.main import main  # noqa: E402

__all__ = ["main"]
