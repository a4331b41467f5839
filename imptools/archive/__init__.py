"""`imp archive`: a club's records in an SQLite database, with standings, searches and duplicates.

`schema` (the tables, versioned), `extract` (a file read and judged, as plain
data), `store` (adding and pruning, one transaction per file), `queries`
(standings, find, dupes), `cli` (the `imp archive` commands). Nothing here is
imported until `imp archive` runs.
"""
