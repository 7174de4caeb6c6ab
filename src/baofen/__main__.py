"""``python -m baofen`` runs the command line."""

from .cli import main

main()
