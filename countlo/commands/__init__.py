"""One module per `countlo` subcommand: HELP, add_arguments(parser), run(args) -> exit code."""
