"""GraphNav: maze topological navigation (repeated, reversed, shortcut trips over key nodes with landmarks).

Data (FORMATS.md, GraphNav): maze.py (mazes/*.txt, grid[x][y] with y up), episodes.py (paths/{task}/*.jsonl),
keygraph.py (key nodes and corridors), observed.py (what an exploration sees), build.py (derived fields),
generate.py (`python -m tango.benchmarks.graphnav.generate OUT`), validate.py
(`python -m tango.benchmarks.graphnav.validate DATA_ROOT`). Views: landmarks.py, scene3d.py, views.py,
conditions.py. Trips: env.py, metrics.py. Agents: recognition.py (oracle / CLIP), cognitive_graph.py,
backend.py and toolbox.py (the `graphnav` primitives), templates.py, agents.py (program, random, VLM).
Evaluation: runner.py (`python -m tango.eval task=graphnav`), breakdown.py (per task x condition x size),
measure.py (program agent vs random baseline on a generated set).
"""
