"""`python -m imptools` runs the `imp` command line."""

from imptools.cli import main

main()
