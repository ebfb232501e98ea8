"""The only perception code that reads ground truth: each module registers named oracle components.

`GroundTruth` (ground_truth.py) is the one handle on scene annotations and semantic frames; the registry gives
it only to factories registered with `oracle=True`, and results list those components (`oracle_components`).
"""
