"""What the Habitat benchmarks share, in layers: `plugin` (the harness plugin: lists episodes in the main
process), `runner` (one simulator, generator and interpreter per worker), `episode_run` (one episode's agent,
programs and scoring for a flow) and `pointnav_runner` (PointNav's controller-only runner)."""
