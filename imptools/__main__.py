"""`python -m imptools` runs the `imp` command line."""

from imptools.commands import main

main()
