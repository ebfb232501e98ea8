"""Evaluation after a run: why episodes failed, from their traces and the benchmark's ground truth (never imported
by the agent; tests/perception/test_ground_truth_boundary.py checks that)."""
