"""SIMULATED perception: ground truth degraded by an explicit, documented error model (docs/perception_simulated.md).

Every component here except the `blind` ones reads ground truth (the semantic frame and the scene annotation)
and is registered with `oracle=True`, so results name it in `oracle_components`: it is degraded ground truth,
not a model. Its errors (missed objects, look-alike confusions, background false positives, noisy value scores,
room and description confusions) are drawn from hashes of the seed, the scene and the camera pose, so the same
pose in the same scene always gives the same perception, as a real detector gives the same output on the same
image, and two agents that stand where the other stood see the same thing.
"""
