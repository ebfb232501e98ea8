"""Point-goal controllers (fast marching, learned PointNav) and the explore / navigate-to-point agent modes."""
