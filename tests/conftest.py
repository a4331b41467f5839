"""Test collection: tests/conformance holds the notation's conformance cases and their runner, data and not tests."""

collect_ignore = ["conformance"]
