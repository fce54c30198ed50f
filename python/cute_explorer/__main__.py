"""`python -m cute_explorer ARGS`: the `render` command line (the same code)."""
import sys

from ._native import run_cli

sys.exit(run_cli(sys.argv[1:]))
