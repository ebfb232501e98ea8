"""Perception: registered components (detectors, value scorers, answerers, image-goal matchers, description
matchers, room classifiers, memories) behind the interfaces the agent calls (interfaces.py), built per episode
by build.py from the registry (registry.py) and the `perception` config (config.py).

Only components under `tango.perception.oracle` read ground truth (its `GroundTruth` handle); see
docs/architecture.md.
"""
