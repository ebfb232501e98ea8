"""The pre-run check and replanning on scripted model replies (a word-overlap similarity stands in for MiniLM,
so each verdict below follows from the words alone)."""

from __future__ import annotations

import numpy as np

from tango.llm import ChatResponse
from tango.programs import parse
from tango.programs.generators import LLMProgramGenerator
from tango.programs.generators.program_check import ProgramCheck
from tango.programs.generators.replan import run_failure, trace_summary
from tango.programs.interpreter import RunResult, StopReason


def overlap(a: list[str], b: list[str]) -> np.ndarray:
    def words(text):
        return {w.strip("?.,'").rstrip("s") for w in text.lower().split()}

    return np.array([[len(words(x) & words(y)) / max(1, len(words(x) | words(y))) for y in b] for x in a])


CHECK = ProgramCheck(overlap)
CHAIR = "explore_scene()\nchair = detect('chair')\nif is_found(chair):\n    navigate_to(chair)\n    stop()\n"
TOILET = CHAIR.replace("chair", "toilet")


def test_a_copied_example_target_is_caught_and_named():
    problem = CHECK.problem("objectnav", "Find a toilet.", parse(CHAIR))
    assert (
        problem
        == "the program searches for 'chair' but the instruction asks for 'toilet': search for 'toilet'"
    )
    assert CHECK.problem("objectnav", "Find a toilet.", parse(TOILET)) is None
    assert CHECK.problem("objectnav", "Find the kitchen chair.", parse(CHAIR)) is None


def test_image_and_description_goals_need_match_and_rooms_are_context():
    image = "Find the object shown in goal_image."
    assert "match(goal_image)" in CHECK.problem("goat", image, parse(CHAIR))
    assert CHECK.problem("goat", image, parse(CHAIR.replace("detect('chair')", "match(goal_image)"))) is None
    in_room = "explore_scene()\nk = detect('kitchen')\nt = detect('toilet')\nif is_found(t):\n    stop()\n"
    assert CHECK.problem("objectnav", "Find a toilet.", parse(in_room)) is None


def test_an_episode_program_must_match_each_numbered_goal_input():
    instruction = "Find the bed, then find the object shown in goal_images[1], then find the object described in goal_descriptions[0]."
    wrong = "x = match(goal_images[0])\nstop()\ny = match(goal_descriptions[0])\nz = detect('bed')\nstop()\n"
    assert CHECK.problem("goat", instruction, parse(wrong)) == (
        "the goal is given as a picture: the program must call match(goal_images[1])"
    )
    right = wrong.replace("goal_images[0]", "goal_images[1]")
    assert CHECK.problem("goat", instruction, parse(right)) is None


def test_the_question_answered_must_be_the_one_asked():
    program = "explore_scene()\nc = detect('couch')\nif is_found(c):\n    return answer('What color is the couch?')\n"
    problem = CHECK.problem("openeqa", "What color is the fridge?", parse(program))
    assert problem is not None and "answers 'What color is the couch?'" in problem
    fridge = program.replace("couch", "fridge")
    assert CHECK.problem("openeqa", "What color is the fridge?", parse(fridge)) is None


class Scripted:
    """Replies in order; records the messages it was sent."""

    def __init__(self, replies):
        self.replies, self.sent = list(replies), []

    def complete(self, messages):
        self.sent.append(messages)
        return ChatResponse(self.replies.pop(0), "scripted", 10, 5)


def test_a_mismatch_goes_back_to_the_model_with_the_reason():
    backend = Scripted([CHAIR, "```python\n" + TOILET + "```\nDone."])
    generator = LLMProgramGenerator("local", "m", backend, "llm", max_attempts=3, check=CHECK)
    record = generator.generate("objectnav", "Find a toilet.")
    assert record.program_source == "llm" and "detect('toilet')" in record.program and record.check_passed
    assert record.attempts[0].error.startswith("check: the program searches for 'chair'")
    assert "search for 'toilet'" in backend.sent[1][-1]["content"]


def test_a_program_that_keeps_failing_the_check_still_runs_as_the_model_wrote_it():
    generator = LLMProgramGenerator("local", "m", Scripted([CHAIR] * 2), "llm", max_attempts=2, check=CHECK)
    record = generator.generate("objectnav", "Find a toilet.")
    assert record.program_source == "llm" and "chair" in record.program and not record.check_passed
    assert len(record.check_failures) == 2


def test_run_failure_reads_only_the_agents_own_evidence():
    done = RunResult(None, StopReason.COMPLETED, 40, 9)
    calls = [{"event": "call", "name": "explore_scene", "call": "explore_scene()", "result": "False"}]
    assert "explored the whole reachable scene" in run_failure(done, calls, stopped=False, question=False)
    failed_nav = [{"event": "call", "name": "navigate_to", "call": "navigate_to(x)", "result": "False"}]
    assert (
        run_failure(done, failed_nav, stopped=True, question=False)
        == "navigate_to could not reach the target"
    )
    assert run_failure(done, [], stopped=True, question=False) is None
    assert (
        run_failure(RunResult("unknown", StopReason.RETURNED, 5, 1), [], False, True)
        == "the question was left unanswered"
    )
    assert run_failure(RunResult("red", StopReason.RETURNED, 5, 1), [], False, True) is None


def test_the_trace_summary_folds_repeats_and_lists_what_was_seen():
    events = [{"event": "call", "call": "explore_scene()", "result": "True"}] * 30
    events += [{"event": "call", "call": "detect('toilet')", "result": "[]"}]
    summary = trace_summary(events, ["chair", "bed", "chair"])
    assert "explore_scene() -> True\n  (the same 29 more times)\n  detect('toilet') -> []" in summary
    assert summary.endswith("Objects seen so far: bed, chair")


def test_replan_sends_program_summary_and_failure_and_parses_the_revision():
    backend = Scripted([TOILET, TOILET.replace("explore_scene()\n", "look_around()\nexplore_scene()\n")])
    generator = LLMProgramGenerator("local", "m", backend, "llm", check=CHECK, max_replans=2)
    record = generator.generate("objectnav", "Find a toilet.")
    revised = generator.replan(
        "objectnav", record, record.program, "navigate_to could not reach the target", "  x"
    )
    assert revised.parsed is not None and "look_around()" in revised.program
    request = backend.sent[1][-1]["content"]
    assert "navigate_to could not reach the target" in request and "Question: Find a toilet." in request
    assert backend.sent[1][-2] == {"role": "assistant", "content": record.program}


def test_a_label_the_question_does_not_mention_is_caught_without_a_subject_phrase():
    program = (
        "explore_scene()\nn = detect('neighbor')\nif is_found(n):\n    return str(count(n))\nreturn '0'\n"
    )
    problem = CHECK.problem("openeqa", "What stands beside the bedroom's plant?", parse(program))
    assert problem is not None and "'neighbor', which the question does not mention" in problem
    plant = program.replace("neighbor", "plant")
    assert CHECK.problem("openeqa", "What stands beside the bedroom's plant?", parse(plant)) is None


def test_the_examples_nearest_the_instruction_come_last_and_change_the_prompt_digest():
    from tango.programs.prompt import nearest_examples, prompt_for_task

    prompt = prompt_for_task("openeqa")
    chosen = nearest_examples(prompt.examples, "How many chairs are in the kitchen?", 3, CHECK.similarity)
    assert len(chosen) == 3 and chosen[-1].question == "How many chairs are there in the kitchen?"
    assert prompt.with_examples(chosen).digest != prompt.digest
    assert nearest_examples(prompt.examples, "anything", 0, CHECK.similarity) == prompt.examples


def test_a_text_given_to_is_found_is_sent_back_before_it_fails_at_run_time():
    """Found in a GOAT run: `if is_found('counter'):` raised when the line ran and ended the episode's program."""
    text = "while explore_scene():\n    if is_found('counter'):\n        navigate_to('counter')\n        stop()\n"
    problem = CHECK.problem("goat", "Find the counter.", parse(text))
    assert problem is not None and problem.startswith(
        "line 2: is_found() takes what detect/match/recall returned"
    )
    assert CHECK.problem("goat", "Find the counter.", parse(CHAIR.replace("chair", "counter"))) is None


def test_a_goal_input_the_instruction_does_not_give_is_sent_back_with_the_object_to_search():
    """'Find the picture.' names an object; the 1.5B wrote `navigate_to(goal_image)` for it (a GOAT val run),
    which fails when it runs: goal_image is unbound for an object goal."""
    picture = "goal = goal_image\nnavigate_to(goal)\nstop()\n"
    problem = CHECK.problem("goat", "Find the picture.", parse(picture))
    assert problem is not None and "gives no goal_image" in problem and "detect('picture')" in problem
    matched = "explore_scene()\nx = match(goal_image)\nif is_found(x):\n    navigate_to(x)\n    stop()\n"
    assert "gives no" in str(CHECK.problem("goat", "Find the picture.", parse(matched)))
    assert CHECK.problem("goat", "Find the object shown in goal_image.", parse(matched)) is None
    fixed = CHAIR.replace("chair", "picture")
    assert CHECK.problem("goat", "Find the picture.", parse(fixed)) is None
    written = "while explore_scene():\n    if goal_image is not None:\n        navigate_to(goal_image)\n        stop()\n    return answer('Find the picture.')\n"
    assert "gives no goal_image" in str(CHECK.problem("goat", "Find the picture.", parse(written)))


def test_a_label_that_is_only_part_of_the_goal_is_sent_back_but_a_qualified_goal_is_not():
    """'Find the tv stand.' answered with detect('tv') (the 1.5B, a GOAT val block) searches for another
    object; detect('chair') for 'Find the kitchen chair.' names the goal's object."""

    def search(label: str):
        return parse(CHAIR.replace("'chair'", repr(label)))

    problem = CHECK.problem("goat", "Find the tv stand.", search("tv"))
    assert problem is not None and "search for 'tv stand'" in problem
    assert CHECK.problem("goat", "Find the tv stand.", search("tv stand")) is None
    assert CHECK.problem("objectnav", "Find the kitchen chair.", parse(CHAIR)) is None
    assert CHECK.problem("goat", "Find the trash can.", search("trash can")) is None


def test_a_stop_in_the_middle_of_a_search_loop_body_is_caught_like_a_last_one():
    """The 1.5B's accepted block for 'Find the plant.': the unconditional stop() is followed by other lines,
    so the last statement alone did not show that the search runs one step."""
    plant = (
        "while explore_scene():\n    plant = detect('plant')\n    if is_found(plant):\n        navigate_to(plant)\n"
        "        stop()\n    stop()\n    note = 'The plant is found!'\n"
    )
    problem = CHECK.problem("goat", "Find the plant.", parse(plant))
    assert problem is not None and "always ends with stop()" in problem


def test_when_every_repair_keeps_a_one_step_search_the_checks_own_correction_runs():
    """The 1.5B's three replies to 'Find the counter.' all ended the search loop's body with stop(); the
    generator then moves that stop() after the loop (what the check asked for) and says so."""
    from tango.programs.generators.llm import SETTLED_WARNING
    from tango.programs.generators.program_check import settled_search

    written = (
        "while explore_scene():\n    counter = detect('counter')\n    if is_found(counter):\n"
        "        navigate_to(counter)\n        stop()\n    stop()\n    note = 'done'\n"
    )

    class Same:
        accepts_grammar = False
        accepts_options = False

        def complete(self, messages):
            return ChatResponse(written, "fake", 10, 10)

    generator = LLMProgramGenerator("fake", "fake", Same(), "llm", check=CHECK)
    record = generator.generate("goat", "Find the counter.")
    assert len(record.attempts) == 3 and record.parsed is not None and SETTLED_WARNING in record.warnings
    loop = record.parsed.tree.body[0]
    assert record.program.rstrip().endswith("stop()") and len(loop.body) == 2, record.program
    assert CHECK.problem("goat", "Find the counter.", record.parsed) is None
    assert settled_search(parse(CHAIR)) is None  # a search that can run on is left alone
