"""Ninety-nine (the notation's section 7): one module per job, the ruleset in `ruleset`, the search in `search`."""
