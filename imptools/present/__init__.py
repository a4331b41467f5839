"""Presenters: Rich renderables for findings, score sheets and replays."""
