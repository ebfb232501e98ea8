"""Benchmarks with their own environments (not Habitat): GraphNav mazes, later the city tasks."""
