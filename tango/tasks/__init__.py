"""One module per benchmark: episode loading in the benchmark's own file format, instructions and measures."""
