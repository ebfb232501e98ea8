"""One module per benchmark flow (the instruction the agent gets, goal inputs, the programs it runs, scoring),
each registering its config schema in `tango.harness.registry`; the episode files are read by tango.formats, and
`tango.tasks.habitat` holds what the Habitat benchmarks share (the harness plugin and the per-worker runner)."""
