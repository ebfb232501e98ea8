"""One module per benchmark (episode loading in its own file format, the instruction the agent gets, goal inputs,
scoring), each registering its config schema in `tango.harness.registry`; `tango.tasks.habitat` is the runner
the Habitat benchmarks share."""
