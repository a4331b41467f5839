"""`python -m imptools` runs the `imp` command line."""

from imptools.cli.main import main

main()
