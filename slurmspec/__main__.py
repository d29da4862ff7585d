"""``python -m slurmspec`` runs the command-line interface."""

from slurmspec.cli import main

raise SystemExit(main())
