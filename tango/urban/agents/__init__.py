"""Agents that play urban episodes: the TANGO program agent (city primitives), an MLLM agent, a random one."""
