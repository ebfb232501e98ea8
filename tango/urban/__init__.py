"""UrbanGround city tasks: the app's HTTP API (client), an offline stand-in city behind the same API (server),
task files in UrbanGround's JSON format, city primitives for program agents, MLLM and random agents, metrics."""
