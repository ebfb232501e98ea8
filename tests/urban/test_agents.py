"""The agents on the stand-in: the program agent's templates parse for every kind and its primitives come from
the one registry; it reaches a short goal, goes round a closure, answers a landmark question, visits three
places; the MLLM agent's replies are parsed (never evaluated) with retries; the random baseline runs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from tango.llm import ChatResponse
from tango.primitives import get_toolbox
from tango.programs import parse
from tango.urban.agents.baselines import RandomAgent
from tango.urban.agents.mllm import MLLMAgent, first_json_object
from tango.urban.agents.program import ProgramAgent
from tango.urban.agents.templates import TemplateError, template_program
from tango.urban.client import UrbanClient
from tango.urban.episode import UrbanEpisode
from tango.urban.instructions import task_instruction
from tango.urban.kinds import BY_PREFIX
from tango.urban.scoring import score
from tango.urban.taskfile import load_task_dir


def episode(client: UrbanClient, city: Path, task_id: str, steps: int = 160) -> UrbanEpisode:
    task = next(t for t in load_task_dir(city / "task")[0] if t.id == task_id)
    run = UrbanEpisode(client, task, steps)
    run.start()
    return run


def test_the_urban_primitives_are_one_registry_toolbox_and_every_kind_has_a_template(city: Path) -> None:
    box = get_toolbox("urban")
    assert {"look_around", "read_signs", "detect", "where_am_i", "locate", "walk_to", "answer"} <= set(
        box.primitives
    )
    for task in load_task_dir(city / "task")[0]:
        program = parse(template_program(task.kind, task_instruction(task)), toolbox="urban")
        assert program.source
    with pytest.raises(TemplateError, match="no 'Goal:' point"):
        template_program(BY_PREFIX["SN"], "[ShortNav]\nsomewhere nice")


@pytest.mark.parametrize("task_id", ["SN-000001", "CN-000001", "LQ-000001", "MP-000001"])
def test_the_program_agent_solves_tasks_of_the_ladder(client: UrbanClient, city: Path, task_id: str) -> None:
    run = episode(client, city, task_id)
    outcome = ProgramAgent(signs="oracle").run(run)
    run.finish()
    metrics, _ = score(run)
    assert metrics["success"] == 1.0, (outcome.extra, run.end_reason, metrics)
    assert run.oracle_calls > 0 if task_id.startswith("LQ") else run.oracle_calls == 0
    if task_id.startswith("CN"):
        assert metrics["closure_violated"] == 0.0 and run.end_reason == "arrived"


def test_without_sign_reading_a_landmark_question_goes_unanswered(client: UrbanClient, city: Path) -> None:
    run = episode(client, city, "LQ-000001")
    ProgramAgent(signs="none").run(run)
    run.finish()
    assert run.oracle_calls == 0 and score(run)[0]["answer_valid"] == 0.0


@dataclass
class ScriptedChat:
    """A chat client replying from a script (the shapes a real model sends: prose around JSON, bad JSON)."""

    replies: list[str]
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def complete(self, messages: list[dict]) -> ChatResponse:
        self.calls += 1
        images = [
            part
            for m in messages
            if isinstance(m["content"], list)
            for part in m["content"]
            if part["type"] == "image_url"
        ]
        assert len(images) == 1  # the current screenshot only: past turns are remembered as text
        return ChatResponse(
            self.replies.pop(0) if self.replies else '{"action": {"action": "terminate"}}', "m"
        )


def test_the_mllm_agent_acts_one_json_action_per_turn_and_retries_bad_replies(
    client: UrbanClient, city: Path
) -> None:
    chat = ScriptedChat(
        [
            'I will look left.\n{"observation": "a street", "reason": "scan", "action": {"action": "look", "yaw": -30}}',
            "import os; os.remove('x')",  # not JSON: sent back with the reason, never executed
            '{"observation": "o", "reason": "r", "action": {"action": "fly"}}',  # not an action of the protocol
            '{"observation": "o", "reason": "r", "action": {"action": "sprint", "dir": "forward", "seconds": 9}}',
            '{"observation": "o", "reason": "r", "action": {"action": "terminate"}}',
            '{"answer": "B", "reason": "seen"}',
        ]
    )
    run = episode(client, city, "LQ-000001", 10)
    MLLMAgent(chat).run(run)
    run.finish()
    actions = [record.action for record in run.records]
    assert actions[0] == {"action": "look", "yaw": -30.0, "pitch": 0.0}
    assert actions[1]["seconds"] == 2.0 and actions[-1] == {"action": "terminate"}
    assert run.answer == "B" and chat.calls == 6


def test_first_json_object_takes_the_first_balanced_object_only() -> None:
    assert first_json_object('x {"a": {"b": 1}} y {"c": 2}') == {"a": {"b": 1}}
    with pytest.raises(ValueError, match="no JSON object"):
        first_json_object("no braces {here")


def test_the_random_baseline_moves_until_the_step_limit(client: UrbanClient, city: Path) -> None:
    run = episode(client, city, "SN-000001", 12)
    RandomAgent(0).run(run)
    run.finish()
    assert run.end_reason in ("step_limit", "arrived") and 1 <= run.steps <= 12


def test_llm_generators_work_through_the_same_interface(
    client: UrbanClient, city: Path, tmp_path: Path
) -> None:
    from tango.programs.prompt import prompt_for_task

    prompt = prompt_for_task("urban")
    assert "walk_to(lat: float, lon: float) -> bool" in prompt.system and "options: list" in prompt.system
    run = episode(client, city, "SN-000001")
    goal = run.task.end
    assert goal is not None
    program = f"here = where_am_i()\nif len(here) == 2:\n    walk_to({goal.lat}, {goal.lon})\n"
    replay = tmp_path / "programs.jsonl"
    replay.write_text(
        json.dumps({"task": "urban", "instruction": run.instruction, "program": program}) + "\n"
    )
    outcome = ProgramAgent({"name": "replay", "replay_path": str(replay)}).run(run)
    run.finish()
    assert outcome.program_source == "replay" and outcome.program.startswith("here = where_am_i()")
    assert score(run)[0]["success"] == 1.0


def test_every_in_context_example_of_the_urban_prompt_parses() -> None:
    from tango.programs.prompt import prompt_for_task

    examples = prompt_for_task("urban").examples
    assert len(examples) >= 4
    for example in examples:
        assert parse(example.program, toolbox="urban").toolbox == "urban"
