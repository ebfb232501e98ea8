"""The interpreter on the fake world: each construct, search semantics, budgets, caps and the JSONL trace."""

from __future__ import annotations

import json

import pytest

from tango.primitives.context import AgentContext
from tango.programs import Budget, Interpreter, StopReason, Trace, parse
from tango.trace.budget import call_budget_for
from tango.types.goals import GoalImage
from tests.programs.fake_world import FakeWorld, apartment


def run(source, budget=None, trace=None, inputs=None):
    budget = budget or Budget()
    world = apartment(budget)
    ctx = AgentContext(agent=world, budget=budget, trace=trace or Trace(), inputs=inputs or {})
    return Interpreter().run(parse(source), ctx), world, ctx


def test_search_loop_finds_the_bed_navigates_and_stops_there():
    result, world, _ = run(
        "explore_scene()\nbed = detect('bed')\nif is_found(bed):\n    navigate_to(bed)\n    stop()\n"
    )
    assert result.stop_reason == StopReason.COMPLETED and result.ok
    assert world.stops == [(16.0, 0.0, 0.0)]
    assert result.steps == world.budget.steps > 0


def test_stop_ends_only_the_search_loop_so_the_next_goal_runs():
    source = """
explore_scene()
chair = detect('chair')
if is_found(chair):
    navigate_to(chair)
    stop()
explore_scene()
tv = detect('tv')
if is_found(tv):
    navigate_to(tv)
    stop()
return count(recall('chair'))
"""
    result, world, _ = run(source)
    assert [p[0] for p in world.stops] == [4.0, 10.0]
    assert result.stop_reason == StopReason.RETURNED
    assert result.value == 2


def test_search_ends_when_the_scene_is_explored_and_nothing_matches():
    result, world, _ = run(
        "explore_scene()\nx = detect('piano')\nif is_found(x):\n    stop()\nreturn 'none'\n"
    )
    assert result.value == "none"
    assert world.stops == []
    assert result.steps == 80


def test_arithmetic_lists_loops_and_builtins_compute_python_values():
    source = """
total = 0
for i in range(1, 5):
    if i == 2:
        continue
    total += i * 2
items = [3, 1, 2]
n = 0
while n < 10:
    n = n + 3
    if n > 6:
        break
return [total, min(items), max(items), len(items), items[-1], items[0:2], 7 // 2, 7 % 3, 1 / 4, n,
        str(3) + 'x', int('4'), float('2.5'), round(2.567, 2), abs(-3), 1 if n else 2, not n, 1 < 2 < 3]
"""
    result, _, _ = run(source)
    assert result.value == [16, 1, 3, 3, 2, [3, 1], 3, 1, 0.25, 9, "3x", 4, 2.5, 2.57, 3, 1, False, True]


def test_step_budget_stops_a_search_with_its_reason():
    result, _, _ = run("explore_scene()\nx = detect('piano')\n", budget=Budget(max_steps=10))
    assert result.stop_reason == StopReason.STEP_BUDGET
    assert "step budget of 10" in result.error
    assert result.error_line == 1


def test_iteration_cap_stops_an_unbounded_loop_without_steps():
    result, _, _ = run("x = 0\nwhile True:\n    x = x + 1\n", budget=Budget(max_loop_iterations=50))
    assert result.stop_reason == StopReason.LOOP_CAP
    assert result.error.startswith("line 2:") and "50 iterations" in result.error


def test_statement_budget_stops_nested_loops_below_each_cap():
    source = "x = 0\nfor i in range(1000):\n    for j in range(1000):\n        x += 1\n"
    result, _, _ = run(source, budget=Budget(max_statements=5000))
    assert result.stop_reason == StopReason.STATEMENT_BUDGET


def test_wall_clock_guard():
    result, _, _ = run("x = 0\nwhile x < 1:\n    x = x\n", budget=Budget(max_wall_s=0.0))
    assert result.stop_reason == StopReason.WALL_CLOCK


def test_call_budget():
    result, _, _ = run("for i in range(100):\n    classify_room()\n", budget=Budget(max_primitive_calls=5))
    assert result.stop_reason == StopReason.CALL_BUDGET and result.primitive_calls == 6


GOAT_LIKE_SEARCHES = (
    "for goal in ['unicorn', 'dragon']:\n"
    "    t = verify(detect(goal))\n"
    "    while not is_found(t) and explore_scene():\n"
    "        t = verify(detect(goal))\n"
)


class _OneStepExplore(FakeWorld):
    """The Habitat agent's explore_scene(): one environment step a call, never explored out."""

    def explore_step(self) -> bool:
        self._act("explore", 1)
        return True


def test_a_goat_episodes_searches_end_on_steps_or_caps_not_on_calls():
    """Two searches of GOAT's shape (four calls a step, each ending at the loop cap of 1000 rounds): with 5000
    calls an episode the second ran out of calls; the call budget that goes with GOAT's 5000 steps lets both
    run their course."""
    for calls, reason in ((5000, StopReason.CALL_BUDGET), (call_budget_for(5000), StopReason.COMPLETED)):
        budget = Budget(max_steps=5000, max_primitive_calls=calls)
        world = _OneStepExplore(objects=[], budget=budget)
        ctx = AgentContext(agent=world, budget=budget, trace=Trace(), inputs={})
        result = Interpreter().run(parse(GOAT_LIKE_SEARCHES), ctx)
        assert result.stop_reason == reason
    assert budget.steps == 2 * 1000 and call_budget_for(500) == 5000


def test_runtime_errors_name_the_line():
    result, _, _ = run("x = [1]\ny = 2\nz = x[5]\n")
    assert result.stop_reason == StopReason.RUNTIME_ERROR
    assert result.error == "line 3: index 5 is out of range for a list of 1 items"


def test_a_failing_primitive_is_a_primitive_error_with_its_call():
    result, _, _ = run("x = detect('unicorn')\nnavigate_to(x)\n")
    assert result.stop_reason == StopReason.PRIMITIVE_ERROR
    assert "line 2: navigate_to([]) failed" in result.error and "list of objects is empty" in result.error


def test_primitive_argument_types_are_checked():
    result, _, _ = run("detect(3)\n")
    assert result.error == "line 1: detect() argument 'label' must be str, got int"


def test_goal_inputs_reach_match_and_unbound_inputs_are_none():
    pixels = __import__("numpy").full((8, 8, 3), (200, 20, 20), dtype="uint8")
    source = "explore_scene()\nc = match(goal_image)\nif is_found(c):\n    navigate_to(c)\n    stop()\nreturn goal_description\n"
    result, world, _ = run(source, inputs={"goal_image": GoalImage(pixels)})
    assert world.stops == [(9.0, 0.0, 0.0)]
    assert result.value is None


def test_trace_records_lines_calls_steps_and_the_error_as_jsonl(tmp_path):
    path = tmp_path / "traces" / "ep1.jsonl"
    trace = Trace(path)
    result, _, _ = run("look_around()\nr = classify_room()\nx = [1][3]\n", trace=trace)
    trace.close()
    events = [json.loads(line) for line in path.read_text().splitlines()]
    assert result.trace_path == str(path)
    kinds = [e["event"] for e in events]
    assert kinds[:2] == ["trace", "program"] and kinds[-1] == "end"
    profile = next(e for e in events if e["event"] == "profile")
    assert [(row["line"], row["count"]) for row in profile["lines"]] == [(1, 1), (2, 1), (3, 1)]
    calls = [e for e in events if e["event"] == "call"]
    assert calls[0]["name"] == "look_around" and calls[0]["steps"] == 12
    assert calls[1]["result"] == "'hallway'" and calls[1]["total_steps"] == 12
    error = next(e for e in events if e["event"] == "error")
    assert error["line"] == 3 and error["reason"] == StopReason.RUNTIME_ERROR
    assert events[-1]["stop_reason"] == StopReason.RUNTIME_ERROR and events[-1]["steps"] == 12


@pytest.mark.parametrize("source", ["return 'a' * 100000\n", "x = 'ab'\nwhile True:\n    x = x + x\n"])
def test_size_limits_stop_string_bombs(source):
    result, _, _ = run(source)
    assert result.stop_reason == StopReason.RUNTIME_ERROR
    assert "exceeds the limit" in result.error


def test_the_trace_counts_every_pass_through_a_search_loop_and_keeps_each_step():
    result, _, ctx = run("explore_scene()\nbed = detect('bed')\nif is_found(bed):\n    stop()\n")
    counts = {row["line"]: row["count"] for row in ctx.trace.of("profile")[0]["lines"]}
    explores = [e for e in ctx.trace.of("call") if e["name"] == "explore_scene"]
    assert counts[1] == counts[2] == counts[3] == len(explores) == 14
    assert all(e["steps"] == 4 for e in explores) and result.steps == 56


def test_the_running_line_is_published_on_the_context_for_primitives():
    seen = []
    budget = Budget()
    world = apartment(budget)
    ctx = AgentContext(agent=world, budget=budget, trace=Trace())
    original = world.classify_room

    def spy():
        seen.append((ctx.line, ctx.line_source))
        return original()

    world.classify_room = spy
    Interpreter().run(parse("x = 1\nroom = classify_room()\n"), ctx)
    assert seen == [(2, "room = classify_room()")]


def test_paper_style_nested_search_returns_from_the_inner_loop():
    source = """
# search for the couch, then for the bed next to it
explore_scene()
couch = detect("couch")
if is_found(couch):
    explore_scene()
    bed = detect("bed")
    if is_found(bed):
        navigate_to(bed)
        n = count(detect("couch"))
        return n
"""
    program = parse(source)
    assert program.source.count("while explore_scene():") == 2
    result, world, _ = run(source)
    assert result.stop_reason == StopReason.RETURNED and result.value == 2
    assert world.position == (16.0, 0.0, 0.0)


def test_the_fake_world_implements_the_agent_protocol():
    from tango.agent.api import HabitatAgentAPI

    assert isinstance(apartment(), HabitatAgentAPI)
    assert not isinstance(object(), HabitatAgentAPI)


def test_a_program_run_counts_its_own_steps_over_every_budget_it_ran_under(tmp_path):
    """GOAT's episode mode gives the running program a fresh budget at each stop(); the program's end event
    and result still count the whole run, and a later program sharing a budget counts only its own."""
    path = tmp_path / "trace.jsonl"
    trace = Trace(path)
    first = Budget()
    result, world, ctx = run(
        "look_around()\nstop()\nlook_around()\nlook_around()\n", budget=first, trace=trace
    )
    assert result.steps == 36  # three look_arounds of 12 steps under one budget

    class Swapping(type(world)):
        def stop(self) -> None:
            super().stop()
            self.budget = ctx.budget = Budget()

    world.__class__ = Swapping
    before = ctx.budget.steps
    again = Interpreter().run(parse("look_around()\nstop()\nlook_around()\nlook_around()\n"), ctx)
    trace.close()
    assert before == 36 and first.steps == 48 and ctx.budget is not first
    assert (
        again.steps == 12 + 24 and ctx.budget.steps == 24
    )  # not the shared budget's 48, nor the last one's 24
    ends = [json.loads(line) for line in path.read_text().splitlines() if '"end"' in line]
    assert [end["steps"] for end in ends] == [36, 36]


def test_a_search_loop_at_the_iteration_cap_ends_like_an_explored_scene_and_the_program_goes_on():
    """Found in GOAT runs: `while explore_scene(): match(...)` passed 1,000 iterations and ended the episode's
    program, so its later goals were never attempted. Other loops still fail at the cap."""
    source = "while explore_scene():\n    x = detect('piano')\nreturn 'done'\n"
    result, world, _ = run(source, budget=Budget(max_loop_iterations=5))
    assert result.ok and result.value == "done"
    assert world.actions.count("explore") == 5
    result, _, _ = run("x = 0\nwhile x < 10:\n    x = x + 1\n", budget=Budget(max_loop_iterations=5))
    assert result.stop_reason == StopReason.LOOP_CAP


def test_the_templates_search_loop_at_the_iteration_cap_ends_like_a_bare_one():
    """Found in the main job (GOAT val episode 6, 5000 steps): the templates' `while not is_found(target) and
    explore_scene():` was not taken for a search, so at 1,000 iterations it failed and ended the episode's
    program. An `and` with a plain condition is still not a search."""
    source = (
        "target = detect('piano')\n"
        "while not is_found(target) and explore_scene():\n"
        "    target = detect('piano')\n"
        "return 'done'\n"
    )
    result, world, _ = run(source, budget=Budget(max_loop_iterations=5))
    assert result.ok and result.value == "done"
    assert world.actions.count("explore") == 5
    result, _, _ = run("x = 0\nwhile x < 10 and True:\n    x = x + 1\n", budget=Budget(max_loop_iterations=5))
    assert result.stop_reason == StopReason.LOOP_CAP
