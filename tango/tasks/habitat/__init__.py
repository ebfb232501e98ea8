"""The runner the Habitat benchmarks share: simulator session, perception, maps, programs and scoring."""
