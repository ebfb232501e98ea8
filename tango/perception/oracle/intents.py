"""ORACLE question intents: what a question asks for, decided by MiniLM similarity to a few prototype
questions per intent, written for this module in plain words.

The question is compared after the observed names in it are replaced by neutral placeholders (categories by
"X", room types by "Y"), so that what it asks, not what it is about, decides the intent; the observed facts
then say about what. Some intents have a rule in the answerer (count, exists, attribute, locate); the others
(identify, surface, purpose) are here so that a question of theirs is recognised as such and goes to the
answerer's language model instead of a rule that does not fit it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tango.perception.text_similarity import TextEmbedder

SUBJECT_PLACEHOLDER, ROOM_PLACEHOLDER = "X", "Y"

PROTOTYPES: dict[str, tuple[str, ...]] = {
    "count": (
        "How many objects are there?",
        "How many objects did you notice in the room?",
        "What is the number of objects in the house?",
        "Count the objects you saw.",
    ),
    "exists": (
        "Is there an object anywhere?",
        "Did you come across any object in the room?",
        "Does this house have an object?",
        "Are there objects in the room?",
    ),
    "identify": (
        "What is the blue object beside the object?",
        "What is that white thing on the wall of the room?",
        "Which item sits to the left of the object?",
        "What do you call the small yellow thing by the object?",
        "What is found right beside the object?",
        "Which thing is nearest to the object in the room?",
        "What is the object placed against the object?",
        "I saw something green close to the object. What was it?",
    ),
    "value:color": (
        "What colour is the object?",
        "What is the color of the object in the room?",
        "Is the object red, blue or green?",
        "What shade is the object painted?",
    ),
    "value:material": (
        "What is the object made of?",
        "Is the object wooden, metal or plastic?",
        "Which substance is the object built with?",
        "What kind of material does the object use?",
    ),
    "value:size": (
        "How big is the object?",
        "Is the object large or small?",
        "What size is the object in the room?",
    ),
    "value:state": (
        "Is the object switched on or off?",
        "Is the object open or shut?",
        "Is the object broken or working?",
        "What state is the object left in?",
    ),
    "surface_empty": (
        "Is the object bare?",
        "Is the object empty, with nothing lying on it?",
        "Is the surface of the object uncluttered?",
        "Is there free space on top of the object?",
    ),
    "surface_contents": (
        "What is lying on the object?",
        "What has been left on top of the object?",
        "Is anything sitting on the object?",
        "What items rest on the object in the room?",
    ),
    "locate": (
        "Where did you see the object?",
        "In what room is the object kept?",
        "Where in the house is the object?",
        "Which room contains the object?",
    ),
    "purpose": (
        "What can I use to cook dinner?",
        "Where could I go to brush my teeth?",
        "What should I use to cool down?",
        "Where can I sit and read a book?",
        "What in this house would help me clean up?",
        "Which thing here is meant for storing food?",
        "Where do I go if I want to take a break?",
        "Where would I keep my winter coats?",
        "Which appliance here could make toast?",
        "What here would help me see in the dark?",
        "Where in the home could I do my homework?",
    ),
}
YES_NO_OPENERS = frozenset({"is", "are", "was", "were", "do", "does", "did", "has", "have", "can", "could"})


@dataclass(frozen=True)
class Intent:
    """What a question asks for."""

    name: str

    @property
    def attribute(self) -> str:
        """The attribute an `value:...` intent asks about ("" for other intents)."""
        return self.name.split(":", 1)[1] if self.name.startswith("value:") else ""


class IntentClassifier:
    """Nearest prototype by MiniLM cosine similarity, among the intents the question's mentions allow."""

    def __init__(self, text: TextEmbedder) -> None:
        self.text = text
        self.names = [name for name, examples in PROTOTYPES.items() for _ in examples]
        self.examples = [example for examples in PROTOTYPES.values() for example in examples]

    def scores(self, masked_question: str) -> dict[str, float]:
        """Each intent's best prototype similarity to the masked question."""
        similarity = self.text.similarity([masked_question], self.examples)[0]
        best: dict[str, float] = {}
        for name, value in zip(self.names, similarity):
            best[name] = max(best.get(name, -1.0), float(value))
        return best

    def classify(self, masked_question: str, attributes: set[str]) -> Intent:
        """The nearest intent; an attribute intent only for an attribute in `attributes` (those observed
        objects report and the question names no value of: naming a colour is not asking for one)."""
        allowed = {
            name: score
            for name, score in self.scores(masked_question).items()
            if not name.startswith("value:") or name.split(":", 1)[1] in attributes
        }
        return Intent(max(allowed, key=lambda n: allowed[n]))


def asks_yes_or_no(words: list[str]) -> bool:
    """Whether a question opens with an auxiliary verb, as yes/no questions do in English."""
    return bool(words) and words[0] in YES_NO_OPENERS
