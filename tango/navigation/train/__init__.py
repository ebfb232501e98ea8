"""`python -m tango.navigation.train`: PointGoal policies trained on generated apartments (DAgger imitation of
the geodesic follower, then optional DD-PPO fine-tuning over torch.distributed)."""
