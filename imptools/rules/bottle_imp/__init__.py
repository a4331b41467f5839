"""The Bottle Imp (the notation's section 5): one module per job, the ruleset in `ruleset`, the search in `search`."""
