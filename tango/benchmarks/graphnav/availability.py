"""Why a GraphNav episode cannot be run as configured: raised before (or while) it runs, so the harness records
an error with its reason instead of scoring a silent failure.

- `MissingImages`: the published renders of the condition lack this maze or view (the card ships images for
  sizes 5-13 only, so 15x15 and 17x17 episodes have none).
- `NoRecognizer`: the views are published renders (RGB only) and the agent has no recogniser for them: the
  program agent's oracle reads the semantic sensor, which renders from files do not have; CLIP needs weights.
- `ConditionMismatch`: the episode's published `state_space`, `observed_graph` or `visibility` is not what
  this run provides (key-node moves, the full explore path shown, left/front/right views).
"""

from __future__ import annotations

from tango.benchmarks.graphnav.episodes import Episode
from tango.benchmarks.graphnav.observed import OBSERVED_GRAPH, STATE_SPACE, VISIBILITY


class EpisodeUnavailable(RuntimeError):
    """An episode this run cannot play as configured (subclasses name the cause)."""


class MissingImages(EpisodeUnavailable):
    """A published render the episode needs is not on disk."""


class NoRecognizer(EpisodeUnavailable):
    """The configured agent has no landmark recogniser for the views in use."""


class ConditionMismatch(EpisodeUnavailable):
    """The episode's published constraint values ask for something this run does not provide."""


RUN_PROVIDES = {"state_space": STATE_SPACE, "observed_graph": OBSERVED_GRAPH, "visibility": VISIBILITY}


def check_run_condition(episode: Episode) -> None:
    """Raise ConditionMismatch unless each published value present equals what this run provides."""
    for key, provided in RUN_PROVIDES.items():
        value = getattr(episode.constraints, key)
        if value is not None and value != provided:
            raise ConditionMismatch(
                f"{episode.maze_name}/{episode.episode_id}: {key}={value!r}, but this run provides {provided!r}"
            )


def check_recognizer(agent: str, recognition: str, clip_weights: str, published_views: bool) -> None:
    """Raise NoRecognizer when published renders would be read by an agent that cannot recognise them."""
    if not published_views or agent in ("vlm", "random"):
        return
    if recognition == "oracle":
        raise NoRecognizer(
            "published renders carry no semantic sensor, so oracle recognition cannot read them: "
            "use graphnav.agent=vlm or graphnav.recognition=clip with graphnav.clip.pretrained weights"
        )
    if not clip_weights:
        raise NoRecognizer(
            "graphnav.recognition=clip has no weights (graphnav.clip.pretrained is empty): random weights are "
            "for wiring tests, not for recognising published renders"
        )
