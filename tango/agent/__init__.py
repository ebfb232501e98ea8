"""The agent: what primitives share during an episode (observations, maps, memory, models, budget, trace)."""
