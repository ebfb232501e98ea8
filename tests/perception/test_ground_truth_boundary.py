"""The line on what the agent may know, read from the code: nothing outside the named oracles
(tango/perception/oracle), the simulator and the few modules that hand ground truth to them reads the semantic
frame or the scene annotation, and no code branches on an oracle's type."""

from __future__ import annotations

import ast
from pathlib import Path

TANGO = Path(__file__).resolve().parents[2] / "tango"
GROUND_TRUTH_NAMES = {
    "load_annotations",
    "annotation_path_for",
    "OracleScene",
    "load_oracle_scene",
    "GroundTruth",
}
# Where ground truth may be read, and why.
ALLOWED = {
    "perception/oracle/": "the named oracle components",
    "perception/simulated/": "the simulated components: ground truth degraded by an error model, registered as "
    "oracles and named in oracle_components (its blind components read nothing)",
    "sim/": "the simulator renders the semantic frame and loads the annotation",
    "scenes/": "scene and dataset generation writes the ground truth",
    "agent/sim_session.py": "the sensor adapter puts the simulator's semantic frame into the Observation",
    "perception/build.py": "hands the episode's GroundTruth to factories registered as oracles",
    "tasks/habitat/": "loads the GroundTruth only when a configured component is an oracle",
    "benchmarks/graphnav/": "GraphNav's own environment and its oracle recogniser (named in its results)",
    "navigation/train/": "policy training writes its apartments (the annotation file marks a finished write) and "
    "is taught by the simulator's geodesic follower; it is not the agent",
    "urban/server/": "the stand-in city (a simulator behind the app's API) renders instance ids for its oracle",
    "analysis/": "failure analysis after a run (evaluation only; the agent side never imports it)",
}
# Where the after-run analysis may be imported: the entry points that hand it to the harness, and the inspect tool.
ANALYSIS_USERS = ("analysis/", "inspect/", "eval.py", "merge.py")


def _modules() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(TANGO)), ast.parse(p.read_text())) for p in sorted(TANGO.rglob("*.py"))]


def _allowed(path: str) -> bool:
    return any(path.startswith(prefix) for prefix in ALLOWED)


def _reads(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "semantic" and isinstance(node.ctx, ast.Load):
            found.append(f"line {node.lineno}: .semantic")
        elif isinstance(node, ast.Name) and node.id in GROUND_TRUTH_NAMES:
            found.append(f"line {node.lineno}: {node.id}")
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("tango.perception.oracle")
        ):
            found.append(f"line {node.lineno}: import {node.module}")
    return found


def test_only_oracles_and_the_simulator_read_ground_truth() -> None:
    offenders = {path: reads for path, tree in _modules() if not _allowed(path) and (reads := _reads(tree))}
    assert not offenders, f"ground truth read outside the named oracles: {offenders}"


def test_the_check_sees_a_read_when_there_is_one() -> None:
    tree = ast.parse(
        "def f(obs):\n    return obs.semantic\nfrom tango.perception.oracle.scene import OracleScene\n"
    )
    assert sorted(_reads(tree)) == ["line 2: .semantic", "line 3: import tango.perception.oracle.scene"]


def test_no_code_branches_on_a_perception_components_type() -> None:
    offenders = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
            ):
                names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
                names |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
                if any(
                    "Oracle" in name or name.endswith(("Scorer", "Matcher", "Locator", "Memory"))
                    for name in names
                ):
                    offenders.append(f"{path}:{node.lineno}")
    assert not offenders, f"isinstance on a perception component: {offenders}"


def test_only_the_entry_points_import_the_after_run_analysis() -> None:
    offenders = []
    for path, tree in _modules():
        if path.startswith(ANALYSIS_USERS):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name.startswith("tango.analysis") for name in names):
                offenders.append(f"{path}:{node.lineno}")
    assert not offenders, f"tango.analysis imported outside the entry points: {offenders}"
