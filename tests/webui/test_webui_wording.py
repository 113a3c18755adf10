"""One language at a time: every warning, refusal and camera status is raised as a code with
parameters, and each code is worded in Italian and in English, every field filled, neither
language's sentence holding the other's words."""

from __future__ import annotations

import ast
import io
import re
import string
from pathlib import Path
from typing import Any

import pytest

from referee.observe.context import Said
from referee.walk import Stop
from referee.rules import DealerSelection
from referee.cards import DECK
from referee.wording import WORDS as REFEREE_WORDS, Message, the_card
from vision.source import WORDS as SOURCE_WORDS
from live.watch import narrate
from live.words import LIVE_WORDS
from webui.inputs import WORDS as INPUT_WORDS
from webui.words import CAMERA_WORDS, PAGE_WORDS, WEB_WORDS, say

ROOT = Path(__file__).resolve().parents[2]
TABLES = {"referee.wording": REFEREE_WORDS, "vision.source": SOURCE_WORDS,
          "live.words": LIVE_WORDS, "webui.words (camera)": CAMERA_WORDS, "webui.words": WEB_WORDS,
          "webui.inputs": INPUT_WORDS}
CODES = sorted({code for table in TABLES.values() for code in table} - PAGE_WORDS.keys())
"""Every sentence code; the pages' own words (labels, raised by no code) are test_webui_words'."""
PREFIXES = {code.split(".")[0] for code in CODES}

ENGLISH = re.compile(r"\b(the|cannot|is|are|and|has|was|not|with|from|for|of|no|does|lost|"
                     r"again|swaps?|turns?|seats?|cards?|hands?|players?|pictures?)\b", re.I)
"""English words an Italian sentence never holds (card names are Italian in both languages)."""
ITALIAN = re.compile(r"\b(non|può|è|sono|una|della|delle|dalla|alla|che|con|tra|mano|"
                     r"carta|carte|giocatori?|fotocamera|immagini|ancora|già|scambiare)\b", re.I)
"""Italian words an English sentence never holds (`per` is English too: the stake per life)."""

SAMPLES: dict[str, Any] = {
    "player": "Anna", "other": "Carla", "due": "Elena", "dealer": "Elena", "target": "Carla",
    "blocker": "Bruno", "owner": "Bruno", "seat": "Dario", "living": "Bruno", "dead": "Anna",
    "winner": "Anna", "a": "Anna", "b": "Bruno", "first": "Anna", "second": "Bruno",
    "before": "Zeno", "name": "Zeno", "card": "10S", "shown": "9C", "held": "3D", "read": "5B",
    "jumps": [["Bruno", "9C"]], "players": ["Anna", "Bruno"], "staying": ["Carla"],
    "action": "swap", "why": Message("walk.wall", {"player": "Anna", "jumps": [],
                                                   "blocker": "Bruno", "card": "10S"}),
    "where": {"code": "place.camera_at", "params": {"address": "192.168.1.20:8080"}},
    "source": {"code": "place.video", "params": {"name": "tavolo.mp4"}},
    "reason": {"code": "reason.timeout", "params": {}},
    "low": 3, "high": 20, "count": 2, "lives": "0", "event": "'?'", "id": 7, "seq": 5,
    "last": 7, "most": 20, "gap": 1.5, "rate": 3.2, "needed": 5, "confidence": 0.42,
    "timeout": 8.0, "seconds": 5.0, "path": "/video", "url": "http://192.168.1.20:8080/video",
    "address": "192.168.1.20:8080", "kind": "text/html", "size": 123, "width": 5000,
    "height": 100, "index": 0, "skipped": 1, "frames": 120, "status": 503,
    "phrase": "Service Unavailable", "text": "no route to host", "error": "x", "detail": "x",
    "folder": "sample_images/sequences", "names": "tavolo", "en": "Anna waits", "it": "Anna aspetta",
    "how": "OK", "cards": "Anna 4C, Bruno 10S", "what": {"code": "way.redeal", "params": {}},
    "game": 2, "hand": 3, "stated": "3", "found": 1.5, "stake": "0.333", "payer": "Bruno", "payee": "Anna",
    "cents": 150,
    "given": "'Zeno'", "line": 1, "column": 2, "presets": ["napoli", "classica"],
    "switches": ["lives", "horse_chain"], "switch": "horse_chain", "choices": ["hidden", "stopped"],
    "pot": 3, "losers": ["Anna", "Bruno"], "survivors": ["Anna", "Bruno"], "faces": {"Anna": "4C", "Bruno": "10S"},
    "walk": Message("walk.target", {"player": "Anna", "jumps": [], "target": "Carla"}),
}
"""A value for every field a sentence names, by the field's name."""
BY_CODE = {"store.others_first": {"first": 5, "last": 7}, "store.other_first": {"seq": 5},
           "source.all_read": {"read": 9}, "source.some_read": {"read": 9}}
"""Where a field's name means something else in one code."""



def fields(code: str) -> set[str]:
    """The fields either language's sentence of `code` names."""
    table = next(t for t in TABLES.values() if code in t)
    return {name.split(".")[0].split("[")[0] for template in table[code].values()
            for _, name, _, _ in string.Formatter().parse(template) if name}


def sample(code: str) -> dict[str, Any]:
    return {name: BY_CODE.get(code, {}).get(name, SAMPLES.get(name)) for name in fields(code)}


def test_every_field_a_sentence_names_has_a_sample() -> None:
    assert {(code, name) for code in CODES for name in fields(code) if name not in SAMPLES} == set()


def test_no_code_means_two_things() -> None:
    tables = list(TABLES.items())
    assert [(code, a, b) for i, (a, one) in enumerate(tables) for b, two in tables[i + 1:]
            for code in one.keys() & two.keys() if one[code] != two[code]] == []


@pytest.mark.parametrize("code", CODES)
def test_each_code_is_worded_in_both_languages_every_field_filled(code: str) -> None:
    italian, english = say(code, sample(code), "it"), say(code, sample(code), "en")
    for text in (italian, english):
        assert text and "{" not in text and "}" not in text, text
    assert ENGLISH.findall(italian) == [], italian
    assert ITALIAN.findall(english) == [], english


CARD_FIELDS = sorted({(code, name, spec) for code in CODES for template in
                      next(t for t in TABLES.values() if code in t)[code].values()
                      for _, name, spec, _ in string.Formatter().parse(template)
                      if name and spec in ("il", "card")})
"""Every field a sentence names a card by (`{card:il}`, `{card:card}`), by code."""
WRONG_ARTICLE = re.compile(r"\bil (Asso)\b|\bl'(Due|Tre|Quattro|Cinque|Sei|Sette|Fante|Cavallo|Re)\b")


@pytest.mark.parametrize("code", sorted({code for code, _, _ in CARD_FIELDS}))
def test_every_card_takes_its_own_article_in_every_sentence_that_names_one(code: str) -> None:
    named = [(name, spec) for each, name, spec in CARD_FIELDS if each == code]
    for card in DECK:
        params = {**sample(code), **{name: card.code for name, _ in named}}
        italian, english = say(code, params, "it"), say(code, params, "en")
        for name, spec in named:
            assert (the_card(card.code, "it") if spec == "il" else card.italian) in italian
        assert WRONG_ARTICLE.findall(italian) == [], italian
        assert card.italian in english, english


@pytest.mark.parametrize("name, italian", [("Anna", "ad Anna"), ("Elena", "a Elena"),
                                           ("Ugo", "a Ugo"), ("Bruno", "a Bruno")])
def test_a_turn_goes_to_a_name_as_italians_write_it_today(name: str, italian: str) -> None:
    assert say("view.turn", {"hand": 1, "player": name}, "it") == f"Mano 1: tocca {italian}"
    assert say("turn.other", {"player": "Zeno", "action": "keep", "due": name}, "it").endswith(
        f"tocca {italian}")


def test_a_swap_past_a_wall_reads_as_a_family_says_it() -> None:
    why = {"player": "Anna", "jumps": [["Bruno", "9C"]], "blocker": "Carla", "card": "10B"}
    assert say("swap.undo", {"why": Message("walk.wall", why)}, "it") == (
        "Anna non può scambiare: salta il Cavallo di Coppe di Bruno, poi Carla ha il Re di "
        "Bastoni (muro) (rifate lo scambio al contrario)")
    assert say("swap.undo", {"why": Message("walk.wall", why)}, "en") == (
        "Anna cannot swap: Bruno's Cavallo di Coppe is jumped, then Carla shows the Re di "
        "Bastoni (wall) (undo the swap on the table)")


def test_the_demo_s_answer_is_worded_whole_in_each_language() -> None:
    what = {"code": "decided.unseen_no", "params": {"a": "Gino", "b": "Leo"}}
    assert say("decided.by_demo", {"what": what}, "it") == (
        "la demo ha risposto come farebbe una famiglia: nessuno scambio tra Gino e Leo: si "
        "continua")
    assert say("decided.by_demo", {"what": what}, "en") == (
        "the demo answered as a family would: no swap between Gino and Leo: the hand goes on")


def test_the_camera_lost_on_the_live_page_reads_in_italian() -> None:
    lost = {"where": {"code": "place.camera_at", "params": {"address": "127.0.0.1:8080"}},
            "reason": {"code": "reason.timeout", "params": {}}}
    assert say("source.lost", lost, "it") == (
        "collegamento perso con la fotocamera a 127.0.0.1:8080 (nessun dato da un po'); riprovo")
    assert say("source.lost", lost, "en") == (
        "lost the camera at 127.0.0.1:8080 (no data for a while); trying again")


# -- every code raised in the source is in a table, and every code in a table is raised ----------

def _is_wording(node: ast.Dict) -> bool:
    """Whether a dict literal is a wording table (every value an {"en": ..., "it": ...} dict)."""
    return bool(node.values) and all(
        isinstance(v, ast.Dict) and {getattr(k, "value", None) for k in v.keys} == {"en", "it"}
        for v in node.values)


def raised_codes() -> dict[str, set[str]]:
    """Every code-shaped string in the runtime's source (a table's own keys aside), by file."""
    found: dict[str, set[str]] = {}
    shaped = re.compile(r"^[a-z_]+\.[a-z_]+$")
    files = re.compile(r"\.(html|onnx|db|json|jpe?g|png|svg|mp4|py|css|js|txt|sqlite)$")
    for package in ("referee", "vision", "live", "webui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict)
                    and _is_wording(node) for k in node.keys}
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                        and id(node) not in keys and shaped.match(node.value)
                        and not files.search(node.value)
                        and node.value.split(".")[0] in PREFIXES):
                    found.setdefault(node.value, set()).add(str(path.relative_to(ROOT)))
    for stop in Stop:  # SwapTarget.message(): f"walk.{stop.value}"
        found.setdefault(f"walk.{stop.value}", set()).add("referee/walk.py")
    for selection in DealerSelection:  # first_dealer_card(): f"first_dealer.{selection}"
        found.setdefault(f"first_dealer.{selection.value}", set()).add("referee/wording.py")
    return found


def test_every_code_raised_in_the_source_is_worded() -> None:
    assert {code: files for code, files in raised_codes().items() if code not in CODES} == {}


def test_every_code_worded_is_raised_somewhere() -> None:
    assert set(CODES) - set(raised_codes()) == set()


# -- watch narrates in one language ------------------------------------------------------------

HELD = Said("warning", 1, {"message": "hand 1: Anna cannot swap: Bruno shows the Re di Spade "
                                      "(wall)"},
            "hand 1: Anna cannot swap: Bruno shows the Re di Spade (wall)",
            "mano 1: Anna non può scambiare: Bruno ha il Re di Spade (muro)", None, "walk.wall",
            {"player": "Anna", "jumps": [], "blocker": "Bruno", "card": "10S"})


@pytest.mark.parametrize("language, line", [
    ("it", "[   12.5 s] Mano 1: Anna non può scambiare: Bruno ha il Re di Spade (muro)\n"),
    ("en", "[   12.5 s] Hand 1: Anna cannot swap: Bruno shows the Re di Spade (wall)\n"),
])
def test_watch_narrates_a_held_hand_in_one_language(language: str, line: str) -> None:
    out = io.StringIO()
    narrate(HELD, 12.5, out, False, None, language)
    assert out.getvalue() == line


def test_watch_json_gives_a_warnings_code_and_parameters() -> None:
    out = io.StringIO()
    narrate(HELD, 12.5, out, True, None)
    assert out.getvalue() == (
        '{"event": "warning", "hand": 1, "message": "hand 1: Anna cannot swap: Bruno shows the '
        'Re di Spade (wall)", "at": 12.5, "code": "walk.wall", "params": {"player": "Anna", '
        '"jumps": [], "blocker": "Bruno", "card": "10S"}}\n')


# -- one wording engine: no sentence is worded outside the tables --------------------------------

TABLE_MODULES = {"referee/wording.py", "vision/source.py", "live/words.py", "webui/words.py",
                 "webui/inputs.py"}
"""The modules whose tables `referee.wording` words: the only ones with an {"en", "it"} entry."""
SAYS = {"say", "word", "warn", "hold", "Message", "Refused", "Coded", "PinRefused", "TableError",
        "HeldError", "RuleError", "refused"}
"""What takes a code as its first argument, never a sentence."""


def _literal(node: ast.AST) -> str | None:
    """The text of a string literal (an f-string's literal parts), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    return None


def _sentence(node: ast.AST) -> bool:
    text = _literal(node)
    return text is not None and len(text.split()) >= 2


def _pair(nodes: list[ast.AST]) -> bool:
    """Whether `nodes` hold an Italian sentence beside an English one."""
    texts = [t for t in map(_literal, nodes) if t is not None and len(t.split()) >= 2]
    return any(ITALIAN.search(t) for t in texts) and any(
        ENGLISH.search(t) and not ITALIAN.search(t) for t in texts)


def _named_pair(named: dict[str, ast.AST]) -> bool:
    """Whether a sentence is named beside its Italian (`text` and `text_it`, `en` and `it`)."""
    pairs = [(k, f"{k}_it") for k in named] + [("en", "it")]
    return any(a in named and b in named and _sentence(named[a]) and _sentence(named[b])
               for a, b in pairs)


def inline_sentences() -> list[str]:
    """Each place in the runtime's source that words a sentence itself: an Italian and an English
    sentence side by side (in a call, a tuple, or a dict outside the tables), or a sentence given
    where a code goes."""
    found = []
    for package in ("referee", "vision", "live", "webui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                named: dict[str, ast.AST] = {}
                if isinstance(node, ast.Call):
                    nodes = list(node.args)
                    named = {k.arg: k.value for k in node.keywords if k.arg}
                    name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                    first = _literal(node.args[0]) if node.args else None
                    if name in SAYS and first is not None and " " in first:
                        found.append(f"{where}:{node.lineno}: {name} given a sentence")
                elif isinstance(node, ast.Tuple):
                    nodes = list(node.elts)
                elif isinstance(node, ast.Dict):
                    named = {k.value: v for k, v in zip(node.keys, node.values)
                             if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                    if named.keys() == {"en", "it"} and where in TABLE_MODULES:
                        continue
                    nodes = []
                else:
                    continue
                if _pair(nodes) or _named_pair(named):
                    found.append(f"{where}:{node.lineno}: an Italian and an English sentence")
    return found


def test_no_sentence_is_worded_outside_the_wording_tables() -> None:
    assert inline_sentences() == []


def test_the_check_finds_a_pair_and_a_sentence_given_for_a_code() -> None:
    pair = ast.parse('say("x", "Anna tiene la carta", "Anna keeps the card")').body[0]
    assert _pair([*pair.value.args])  # type: ignore[attr-defined]
    assert not _pair(ast.parse('("Anna keeps the card", "Bruno swaps")').body[0].value.elts)  # type: ignore[attr-defined]
    said = ast.parse('{"text": "Anna keeps", "text_it": "Anna tiene la carta"}').body[0]
    assert _named_pair({k.value: v for k, v in zip(said.value.keys, said.value.values)})  # type: ignore[attr-defined]
