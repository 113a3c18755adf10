"""A held hand and its ways on, told as stories: what the page is offered, each way's outcome in
the game, the hand going on under the camera, and each decision taken back."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

from live.held import DEMO_AFTER, mark_decisions
from live.loop import LiveLoop
from live.way import (Continue, CorrectWay, DrawWay, HeldError, Noted, Redeal, SwapWay, Unseen, Way,
                      WayError, Write, from_json)
from live.words import LIVE_WORDS
from referee.cards import parse_card
from referee.events import Correct, Deal, Draw, Keep, Reveal, Settle, Swap
from referee.game import Phase, RuleError
from referee.observe import DEAL_STILL, SETTLE_STILL
from referee.wording import RAISED, TOLD, WORDS
from vision.frames import Frame, PushedFrames
from vision.recognize import CardReader
from vision.seats import UNSURE
from webui.table import TableService
from webui.words import CAMERA_WORDS, WEB_WORDS

from conftest import PLAYERS, WITH_PIN
from held_story import FACES, PAST_THE_WALL, UNDER_THE_HANDS, WALLED, StoryTable


@pytest.fixture
def story(table: TableService) -> StoryTable:
    """Anna, Bruno, Carla and Dario; Dario deals and Bruno shows the Re di Coppe."""
    table.setup(PLAYERS, dealer="Dario")
    told = StoryTable(table)
    told.dealt()
    return told


KEPT = "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 6B#4"
DRAWS = [(9.0, KEPT), (10.0, KEPT),
         (10.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario -"),  # he takes up his card
         (11.0, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario down#5")]  # and draws
"""Everyone but the dealer keeps and turns up; Dario takes up his 6B and draws, face down."""


def ways(table: TableService) -> list[dict]:
    return [{k: v for k, v in way.items() if k in ("way", "player", "target", "a", "b")}
            for way in table.state()["held"]["ways"]]


def settle(story: StoryTable, at: float) -> list[dict]:
    """Everyone turns up as FACES and the table rests until the hand is settled."""
    return story.tell([(at, FACES), (at + SETTLE_STILL + 0.5, FACES)])


def test_an_illegal_swap_held_offers_the_ways_the_rules_allow(story: StoryTable) -> None:
    said = story.tell(PAST_THE_WALL)
    assert [line["event"] for line in said] == ["swap", "warning"]
    held = story.table.state()["held"]
    assert held["code"] == "swap.undo"
    assert held["text"] == ("Mano 1: Anna non può scambiare: Bruno ha il Re di Coppe (muro) "
                               "(rifate lo scambio al contrario)")
    assert held["rule"] == {"text": "Anna non può scambiare: Bruno ha il Re di Coppe (muro)"}
    assert story.table.state("en")["held"]["rule"] == {
        "text": "Anna cannot swap: Bruno shows the Re di Coppe (wall)"}
    assert held["photo"].startswith("/evidence/held-01-") and held["photo"].endswith(".jpg")
    # Only the swap the referee allows that touches a seat seen moving: Carla's with Dario.
    assert ways(story.table) == [{"way": "continue"},
                                 {"way": "swap", "player": "Carla", "target": "Dario"},
                                 {"way": "redeal"}, {"way": "write"}]
    texts = [way["text"] for way in held["ways"]]
    assert texts == ["Le carte sono tornate a posto: continua", "Era uno scambio tra Carla e Dario",
                     "Ridai le carte", "Scrivi la mano"]
    write = held["ways"][-1]["cards"]
    assert write == [{"player": "Anna", "card": None, "fixed": False},
                     {"player": "Bruno", "card": "10C", "fixed": True},
                     {"player": "Carla", "card": None, "fixed": False},
                     {"player": "Dario", "card": None, "fixed": False}]
    assert [seat["face"] for seat in held["seen"]] == ["down", "up", "down", "down"]


def test_while_held_the_table_is_shown_as_the_camera_sees_it(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    version = story.table.version
    story.tell([(9.0, FACES)])  # everyone turns up while the hand waits
    assert story.table.version > version
    held = story.table.state()["held"]
    assert [(s["player"], s["face"], s["card"]) for s in held["seen"]] == [
        ("Anna", "up", "5S"), ("Bruno", "up", "10C"), ("Carla", "up", "3D"), ("Dario", "up", "6B")]
    assert held["seen"][0]["name"] == {"code": "5S", "name": "Cinque di Spade"}
    assert story.table.state("en")["held"]["seen"][0]["name"] == {"code": "5S", "name": "5 of Swords"}
    cards = {c["player"]: c["card"] for c in held["ways"][-1]["cards"]}
    assert cards == {"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "6B"}  # as read


def test_the_cards_back_in_place_go_on_and_the_camera_settles(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    ident = story.table.state()["held"]["id"]
    story.table.decide(ident, Continue())
    state = story.table.state()
    assert state["held"] is None and state["warnings"] == []
    assert state["decided"]["text"] == "Mano 1: le carte sono tornate a posto: si continua"
    assert state["decided"]["undoable"] is True
    said = settle(story, 10.0)
    assert [line["event"] for line in said][-1] == "settle"
    assert story.table.game.results[-1].losers == ("Carla",)
    assert story.table.state("en")["verdicts"][0]["decided"] == [
        {"text": "Hand 1: the cards are back in place: the hand goes on"}]
    assert story.table.state("it")["verdicts"][0]["decided"] == [
        {"text": "Mano 1: le carte sono tornate a posto: si continua"}]


def test_a_swap_the_rules_allow_is_played_with_the_keeps_before_it(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    ident = story.table.state()["held"]["id"]
    story.table.decide(ident, SwapWay("Carla", "Dario"))
    game = story.table.game
    assert list(game.history)[-2:] == [Keep("Anna"), Swap("Carla", "Dario")]
    assert game.phase is Phase.REVEAL
    said = settle(story, 10.0)
    assert [line["event"] for line in said] == ["reveal", "keep", "settle"]


def test_a_swap_the_rules_do_not_allow_is_refused(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    ident = story.table.state()["held"]["id"]
    with pytest.raises(HeldError, match="not offered"):
        story.table.decide(ident, SwapWay("Anna", "Carla"))
    assert story.table.state()["held"]["id"] == ident


@pytest.mark.parametrize("way", [
    Continue(), SwapWay("Carla", "Dario"), Unseen("Anna", "Carla", "no"),
    DrawWay("Dario", parse_card("1B")), CorrectWay("Dario", parse_card("1B")), Redeal(),
    Write.of({"Anna": "5S", "Bruno": None}), Noted()], ids=lambda way: way.kind)
def test_each_way_a_person_takes_is_posted_as_json_and_read_back_the_same(way: Way) -> None:
    assert from_json(json.loads(json.dumps(way.to_json()))) == way


def test_the_page_posts_a_way_as_it_was_offered_and_reads_the_decision_back(
        story: StoryTable, client: FlaskClient) -> None:
    story.tell(PAST_THE_WALL)
    held = story.table.state()["held"]
    url = f"/api/held/{held['id']}"
    for bad in ({"way": "swap", "player": "Carla"}, {"way": "seats"}, {"way": "shrug"},
                {"way": "unseen", "a": "Anna", "b": "Carla", "answer": "maybe"}):
        answer = client.post(url, json=bad, headers=WITH_PIN)
        assert (answer.status_code, answer.get_json()["code"]) == (409, "held.way"), bad
    offered = next(way for way in held["ways"] if way["way"] == "swap")
    posted = {key: offered[key] for key in ("way", "player", "target")}
    assert from_json(posted) == SwapWay("Carla", "Dario") and SwapWay("Carla", "Dario").to_json() \
        == posted
    answer = client.post(url, json=posted, headers=WITH_PIN)
    assert answer.status_code == 200 and answer.get_json()["decided"]["way"] == posted
    assert list(story.table.game.history)[-1] == Swap("Carla", "Dario")
    resolved = json.loads(story.table.store.warnings(open_only=False)[-1]["how"])
    assert resolved == {"by": "person", **posted}


def test_dealing_again_voids_the_hand_and_waits_for_a_new_deal(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    ident = story.table.state()["held"]["id"]
    story.table.decide(ident, Redeal())
    game = story.table.game
    assert game.phase is Phase.DEAL and game.hand is None and game.next_dealer == "Dario"
    assert story.table.state()["decided"]["text"] == (
        "Mano 1: la mano non vale: Dario ridà le carte")
    # The cards lying are the void hand's: the deal counts only once they have left.
    assert story.tell([(10.0, FACES), (14.0, FACES)]) == []
    empty = "Anna - Bruno - Carla - Dario -"
    fresh = "Anna down#11 Bruno down#12 Carla down#13 Dario down#14"
    said = story.tell([(15.0, empty), (16.0, fresh), (16.0 + DEAL_STILL, fresh)])
    assert said[0] == {"event": "deal", "hand": 1, "dealer": "Dario"}


def test_a_hand_written_by_hand_is_revealed_and_settled_by_the_camera(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    story.tell([(9.0, FACES)])
    held = story.table.state()["held"]
    cards = {c["player"]: c["card"] for c in held["ways"][-1]["cards"]}
    cards["Carla"] = "3D"
    story.table.decide(held["id"], Write.of(cards))
    game = story.table.game
    assert list(game.history)[-3:] == [Keep("Anna"), Keep("Carla"), Reveal.of(cards)]
    said = story.tell([(9.5, FACES), (9.5 + SETTLE_STILL + 0.5, FACES)])
    assert [line["event"] for line in said] == ["keep", "settle"]
    assert game.results[-1].losers == ("Carla",)


def test_a_hand_written_with_a_card_missing_or_seen_twice_is_refused(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    ident = story.table.state()["held"]["id"]
    with pytest.raises(HeldError, match="write Carla's card"):
        story.table.decide(ident, Write.of({"Anna": "5S", "Bruno": "10C", "Dario": "6B"}))
    with pytest.raises(RuleError):
        story.table.decide(ident, Write.of({"Anna": "5S", "Bruno": "10C", "Carla": "5S",
                                            "Dario": "6B"}))
    assert story.table.game.history[-1] == Deal.of({"Anna": "?", "Bruno": "10C", "Carla": "?",
                                                     "Dario": "?"})
    assert story.table.state()["held"]["id"] == ident


def test_a_draw_never_read_before_the_gathering_is_written_and_settled(story: StoryTable) -> None:
    said = story.tell([*DRAWS,
                       (12.0, "Anna - Bruno - Carla - Dario down#5"),  # gathered, unread
                       (12.5, "Anna - Bruno - Carla - Dario down#5")])
    assert [line["event"] for line in said][-1] == "warning"
    held = story.table.state()["held"]
    assert held["code"] == "draw.unseen"
    assert held["text"] == ("Mano 1: Dario ha pescato una carta che la fotocamera non ha "
                               "letto: dite voi che carta ha")
    assert ways(story.table) == [{"way": "redeal"}, {"way": "write"}]  # no watching on
    cards = {c["player"]: c["card"] for c in held["ways"][-1]["cards"]}
    assert cards == {"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "6B"}
    story.table.decide(held["id"], Write.of({**cards, "Dario": "1S"}))
    game = story.table.game
    assert list(game.history)[-2:] == [Draw("Dario", parse_card("1S")), Settle()]
    assert game.results[-1].losers == ("Dario",) and story.table.state()["held"] is None


def test_a_draw_read_otherwise_until_the_gathering_is_written_and_settled(story: StoryTable) -> None:
    said = story.tell([*DRAWS,
                       (11.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 2C#5"),  # named the 2C
                       (12.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1C#5"),  # then the Asso
                       (13.0, "Anna - Bruno - Carla - Dario 1C#5"),  # gathered
                       (13.5, "Anna - Bruno - Carla - Dario 1C#5")])
    assert "settle" not in [line["event"] for line in said]
    held = story.table.state()["held"]
    assert held["code"] == "card.reads_otherwise"
    assert held["text"] == ("Mano 1: la carta di Dario ora si legge 1C, ma prima si leggeva 2C: "
                               "correggetela se è così")
    assert ways(story.table) == [{"way": "correct", "player": "Dario"}, {"way": "redeal"},
                                 {"way": "write"}]  # no watching on
    cards = {c["player"]: c["card"] for c in held["ways"][-1]["cards"]}
    story.table.decide(held["id"], Write.of({**cards, "Dario": "1C"}))
    game = story.table.game
    assert list(game.history)[-1] == Settle()
    assert game.results[-1].losers == ("Dario",) and story.table.state()["held"] is None


def test_a_dealer_written_with_his_own_card_kept_it(story: StoryTable) -> None:
    story.tell([*DRAWS,
                (12.0, "Anna - Bruno - Carla - Dario down#5"),
                (12.5, "Anna - Bruno - Carla - Dario down#5")])
    held = story.table.state()["held"]
    cards = {c["player"]: c["card"] for c in held["ways"][-1]["cards"]}
    story.table.decide(held["id"], Write.of(cards))
    game = story.table.game
    assert list(game.history)[-2:] == [Keep("Dario"), Settle()]
    assert game.results[-1].losers == ("Carla",)


def test_two_cards_covered_together_ask_whether_they_were_swapped(story: StoryTable) -> None:
    said = story.tell(UNDER_THE_HANDS)
    assert [line["event"] for line in said] == ["warning"]
    held = story.table.state()["held"]
    assert held["code"] == "swap.unseen"
    # the game's own refusal of that swap, as an illegal swap seen is told
    assert held["rule"]["text"] == "Anna non può scambiare: Bruno ha il Re di Coppe (muro)"
    unseen = held["ways"][0]
    assert (unseen["text"], unseen["yes"]["text"], unseen["no"]["text"]) == (
        "C'è stato uno scambio tra Anna e Carla?", "Sì: le rimettiamo a posto",
        "Nessuno scambio: sono al loro posto")
    assert ways(story.table)[1:] == [{"way": "swap", "player": "Carla", "target": "Dario"},
                                     {"way": "redeal"}, {"way": "write"}]
    story.table.decide(held["id"], Unseen("Anna", "Carla", "no"))
    assert story.table.state()["held"] is None
    said = settle(story, 10.0)
    assert said[-1]["event"] == "settle"


def test_a_swap_said_under_the_hands_holds_the_hand_until_put_back(story: StoryTable) -> None:
    story.tell(UNDER_THE_HANDS)
    ident = story.table.state()["held"]["id"]
    story.table.decide(ident, Unseen("Anna", "Carla", "yes"))
    held = story.table.state()["held"]
    assert held["code"] == "swap.put_back" and held["id"] != ident
    assert held["text"] == ("Mano 1: le carte di Anna e di Carla sono state scambiate sotto "
                               "le mani, e non è permesso: rimettetele a posto, poi ditelo")
    assert held["ways"][0]["way"] == "continue"
    assert story.tell([(9.0, FACES), (13.0, FACES)]) == []  # nothing while it waits
    story.table.decide(held["id"], Continue())
    assert story.table.state()["held"] is None


@pytest.mark.parametrize("way", [
    Continue(), SwapWay("Carla", "Dario"), Redeal(),
    Write.of({"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "6B"}),
], ids=lambda way: way.kind)
def test_each_decision_is_taken_back_and_the_hand_held_again(story: StoryTable,
                                                              way: Way) -> None:
    story.tell(PAST_THE_WALL)
    game = story.table.game
    before = list(game.history)
    first = story.table.state()["held"]
    story.table.decide(first["id"], way)
    number = story.table.state()["decided"]["number"]
    story.table.take_back(number)
    assert list(game.history) == before
    again = story.table.state()["held"]
    assert again["code"] == "swap.undo" and again["id"] != first["id"]
    assert [w["way"] for w in again["ways"]] == [w["way"] for w in first["ways"]]
    assert story.table.state()["decided"] is None
    assert story.tell([(9.0, FACES), (13.0, FACES)]) == []  # held again: nothing is played
    assert story.controller.held is not None


def test_an_answer_under_the_hands_is_taken_back_to_the_question(story: StoryTable) -> None:
    story.tell(UNDER_THE_HANDS)
    ident = story.table.state()["held"]["id"]
    story.table.decide(ident, Unseen("Anna", "Carla", "yes"))
    story.table.take_back(story.table.state()["decided"]["number"])
    held = story.table.state()["held"]
    assert held["code"] == "swap.unseen"
    assert [w["id"] for w in story.table.state()["warnings"]] == [held["id"]]


def test_a_decision_is_not_taken_back_once_the_game_has_gone_on(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    story.table.decide(story.table.state()["held"]["id"], Continue())
    settle(story, 10.0)
    decided = story.table.state()["decided"]
    assert decided["undoable"] is False
    with pytest.raises(HeldError, match="gone on"):
        story.table.take_back(decided["number"])


def test_cards_put_back_on_the_table_let_the_hold_go_by_themselves(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    ident = story.table.state()["held"]["id"]
    story.tell([(9.0, "Anna - Bruno 10C#2 Carla - Dario down#4"), (10.0, WALLED), (10.5, WALLED)])
    state = story.table.state()
    assert state["held"] is None and state["warnings"] == []
    resolved = [w for w in story.table.store.warnings(open_only=False) if w["id"] == ident]
    assert json.loads(resolved[0]["how"]) == {"by": "camera", "way": "released"}


def test_a_held_warning_resolved_on_the_history_page_resumes_the_hand(story: StoryTable) -> None:
    story.tell(PAST_THE_WALL)
    story.table.resolve(story.table.state()["held"]["id"], "rimesse a posto")
    assert story.controller.held is None
    assert story.table.state()["decided"]["text"] == (
        "Mano 1: risolto dalla pagina Storico: rimesse a posto")
    assert settle(story, 10.0)[-1]["event"] == "settle"


def test_the_demo_answers_a_held_hand_after_ten_seconds_of_its_film(story: StoryTable) -> None:
    story.holds.answer = Redeal()
    story.tell(PAST_THE_WALL)
    held = story.table.state()["held"]
    assert held["demo"]["text"] == ("Tra 10 s la demo risponde da sola, come farebbe una "
                                       "famiglia: Ridai le carte")
    story.tell([(8.0 + DEMO_AFTER - 0.5, FACES)])
    assert story.table.state()["held"] is not None
    story.tell([(8.0 + DEMO_AFTER + 0.1, FACES)])
    state = story.table.state()
    assert state["held"] is None and state["decided"]["by"] == "demo"
    assert state["decided"]["text"] == ("Mano 1: la demo ha risposto come farebbe una "
                                           "famiglia: la mano non vale: Dario ridà le carte")


def test_the_settlement_photo_shows_what_was_decided_by_hand() -> None:
    from live.held import Decision, Hold

    hold = Hold(1, None, ("Anna", "Carla"), None, 0.0)  # type: ignore[arg-type]
    blank = np.zeros((200, 320, 3), np.uint8)
    decisions = [Decision(1, Unseen("Anna", "Carla", "no"), "person", hold,
                          seats=("Anna", "Carla"))]
    marked = mark_decisions(blank, {"Anna": (60.0, 150.0), "Carla": (260.0, 50.0)}, decisions,
                            40.0)
    gold = np.all(np.abs(marked.astype(int) - (40, 178, 230)) < 40, axis=2)
    assert gold[0:4, :].all()  # the frame
    assert gold[100, 160]  # the crossed arrow between the two seats, at its middle
    assert gold[5:40, 280:316].any()  # the raised hand in the corner
    assert not gold[190, 60]
    assert mark_decisions(blank, {}, [], 40.0) is blank
    cv2.imencode(".png", marked)


# -- every code the live loop raises has a way on at the table page ------------------------------

ROOT = Path(__file__).resolve().parents[2]
LOOP = [*sorted((ROOT / "referee" / "observe").glob("*.py")), ROOT / "live" / "held.py",
        ROOT / "live" / "loop.py"]
"""The live loop's source: the camera's referee, the held hand's desk, the loop itself."""
REFEREES = set(WORDS) - set(TOLD) - set(WEB_WORDS) - set(CAMERA_WORDS) - set(LIVE_WORDS)
"""The referee's codes of a warning or a refusal (not the narration's, nor those live and webui register)."""


def loop_codes() -> tuple[dict[str, set[str]], set[str]]:
    """The referee's codes the live loop's source raises (any named outside a `Message(...)`,
    which is a rule's sentence nested in another), by file; and every code it names."""
    raised: dict[str, set[str]] = {}
    named: set[str] = set()
    for path in LOOP:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nested = {id(node.args[0]) for node in ast.walk(tree) if isinstance(node, ast.Call)
                  and getattr(node.func, "id", None) == "Message" and node.args}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in REFEREES:
                named.add(node.value)
                if id(node) not in nested:
                    raised.setdefault(node.value, set()).add(path.name)
    return raised, named


def test_every_code_the_loop_raises_is_one_of_referee_wording_raised() -> None:
    raised, named = loop_codes()
    assert {code: files for code, files in raised.items() if code not in RAISED} == {}
    assert set(RAISED) - named == set()  # none left over


def _answer(held: dict) -> Way:
    """A way on that needs no more words from a person (the first one that is not the written
    hand or the question), as the page posts it."""
    way = next(w for w in held["ways"] if w["way"] not in ("write", "unseen"))
    return from_json({k: v for k, v in way.items() if k in ("way", "player", "target", "card")})


@pytest.mark.parametrize("holding", [True, False], ids=["held", "warned"])
@pytest.mark.parametrize("code", sorted(RAISED))
def test_every_code_the_loop_raises_has_a_way_on_in_both_languages(
        story: StoryTable, code: str, holding: bool) -> None:
    story.raise_code(code, holding, at=9.0)
    state = story.table.state()
    shown = state["held"] if holding else state["asked"]
    assert shown["code"] == code and shown["holding"] is holding
    assert (state["asked"] if holding else state["held"]) is None  # one question at a time
    assert shown["ways"]
    english = story.table.state("en")["held" if holding else "asked"]["ways"]
    for way, said in zip(shown["ways"], english, strict=True):
        assert way["text"] and said["text"] and way["text"] != said["text"]
    story.table.decide(shown["id"], _answer(shown))
    after = story.table.state()
    assert after["held"] is None and after["asked"] is None
    assert shown["id"] not in [w["id"] for w in after["warnings"]]


def test_a_warning_asked_is_taken_back_as_asked_not_held(story: StoryTable) -> None:
    story.raise_code("card.unread", False, at=9.0)
    asked = story.table.state()["asked"]
    assert [w["way"] for w in asked["ways"]] == ["redeal", "write", "noted"]
    story.table.decide(asked["id"], Noted())
    assert story.table.state()["decided"]["text"] == "Mano 1: avviso visto: si continua"
    story.table.take_back(story.table.state()["decided"]["number"])
    state = story.table.state()
    assert state["held"] is None and state["asked"]["code"] == "card.unread"
    assert story.controller.held is None


DEALER_READ_ANEW = [(9.0, KEPT), (10.0, KEPT),
                    (10.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4"),  # the same card,
                    (11.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4")]  # read as the 1B
"""Everyone keeps and turns up; then the card at Dario's seat, never seen lifted, reads 1B."""


def test_a_dealers_card_read_anew_is_asked_and_taken_for_his_draw(story: StoryTable) -> None:
    said = story.tell(DEALER_READ_ANEW)
    assert [line["event"] for line in said][-2:] == ["reveal", "warning"]
    state = story.table.state()
    asked = state["asked"]
    assert state["held"] is None and asked["code"] == "card.reads_otherwise"
    assert [w["text"] for w in asked["ways"]] == [
        "Era una pescata: Dario ha pescato l'Asso di Bastoni",
        "Correggi la carta: Dario ha l'Asso di Bastoni", "Ridai le carte", "Scrivi la mano"]
    assert [w["text"] for w in story.table.state("en")["asked"]["ways"]] == [
        "It was a draw: Dario drew the Asso di Bastoni",
        "Correct the card: Dario holds the Asso di Bastoni", "Deal again", "Write the hand"]
    story.table.decide(asked["id"], DrawWay("Dario", parse_card("1B")))
    assert list(story.table.game.history)[-1] == Draw("Dario", parse_card("1B"))
    assert story.table.state()["warnings"] == []
    line = "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4"
    story.tell([(12.0, line), (12.0 + SETTLE_STILL + 0.5, line)])  # the camera goes on
    assert story.table.game.results[-1].losers == ("Dario",)
    assert story.table.state()["decided"]["text"] == (
        "Mano 1: Dario ha pescato l'Asso di Bastoni (deciso a mano)")


@pytest.mark.parametrize("way, played", [
    (DrawWay("Dario", parse_card("1B")), [Draw("Dario", parse_card("1B")), Settle()]),
    (CorrectWay("Dario", parse_card("1B")),
     [Correct("Dario", parse_card("1B")), Keep("Dario"), Settle()]),
], ids=["draw", "correct"])
def test_a_dealers_card_read_anew_as_the_cards_are_gathered_holds_until_decided(
        story: StoryTable, way: Way, played: list) -> None:
    story.tell([*DEALER_READ_ANEW, (12.0, "Anna - Bruno - Carla - Dario 1B#4"),
                (12.5, "Anna - Bruno - Carla - Dario 1B#4")])
    state = story.table.state()
    held = state["held"]
    assert held["code"] == "card.reads_otherwise" and state["asked"] is None
    assert [w["id"] for w in state["warnings"]] == [held["id"]]  # the warning that holds now
    assert [w["way"] for w in held["ways"]] == ["draw", "correct", "redeal", "write"]
    story.table.decide(held["id"], way)
    game = story.table.game
    assert list(game.history)[-len(played):] == played
    assert game.results[-1].losers == ("Dario",) and story.table.state()["held"] is None


def test_the_newest_warning_is_asked_first_and_an_older_one_may_still_be_answered(
        story: StoryTable) -> None:
    story.raise_code("card.unread", False, at=9.0)
    older = story.table.state()["asked"]["id"]
    story.raise_code("seat.missing", False, at=9.5)
    assert story.table.state()["asked"]["code"] == "seat.missing"
    story.table.decide(older, Noted())  # tapped on a phone that showed it first
    assert story.table.state()["asked"]["code"] == "seat.missing"
    story.raise_code("swap.undo", True, at=10.0)  # while the hand is held, it is asked first
    state = story.table.state()
    assert state["asked"] is None and state["held"]["code"] == "swap.undo"
    with pytest.raises(HeldError):
        story.table.decide(state["warnings"][0]["id"], Noted())


@pytest.mark.parametrize("code", UNSURE)
def test_a_deal_whose_places_cannot_be_named_asks_for_them_to_be_tapped_and_goes_on_once_they_are(
        table: TableService, code: str) -> None:
    # the live loop, its watcher unable to name the places at the first deal: it warns, and the table
    # page's one way on leads to the picture where each place is tapped; tapped, the loop goes on
    table.setup(PLAYERS, dealer="Dario")
    loop = LiveLoop(table, PushedFrames(), reader=CardReader())
    frame = Frame(np.full((360, 640, 3), 90, np.uint8), 1.0, 0)
    watcher = loop._watcher_for(frame)
    assert watcher is not None
    watcher.finder.unsure = code
    loop._one(frame)
    watcher.finder.unsure = next(other for other in UNSURE if other != code)  # read anew, another reason
    loop._one(Frame(frame.pixels, 1.05, 1))
    assert [w["code"] for w in table.state()["warnings"]] == [code]  # asked once, until the places are known
    asked = table.state()["asked"]
    assert asked["code"] == code and [way["way"] for way in asked["ways"]] == ["seats"]
    seats = asked["ways"][0]
    english = table.state("en")["asked"]
    assert (seats["text"], english["ways"][0]["text"]) == (
        "Tocca il posto di ogni giocatore sulla foto", "Tap each player's place on the picture")
    assert "Setup" in asked["text"] and "Setup" in english["text"] and asked["text"] != english["text"]
    with pytest.raises(WayError):  # a way to the picture, not a decision the page posts
        from_json(seats)
    table.set_seats(640, 360, {"Anna": [320, 330], "Bruno": [600, 180], "Carla": [320, 30], "Dario": [40, 180]})
    loop._one(Frame(frame.pixels, 1.1, 2))
    assert watcher.seats is not None and watcher.seats.point("Bruno") == (600.0, 180.0)
    assert table.state()["asked"] is None
    assert [w["code"] for w in table.state()["warnings"]] == []
