"""`python -m countlo` runs the command line."""

from countlo.cli import main

raise SystemExit(main())
