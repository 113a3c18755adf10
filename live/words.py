"""The live package's own codes, in Italian and English (a held hand's ways on and decisions, the
loop's camera statuses), registered with `referee.wording`; the refusal raised as a code; a card named
for a page."""

from __future__ import annotations

from typing import Any

from referee.cards import Card
from referee.wording import register, word

LIVE_WORDS: dict[str, dict[str, str]] = register({
    # a held hand's ways on (live.held, live.ways)
    "held.none": {"en": "no hand is held for warning {id}",
                  "it": "nessuna mano è ferma per l'avviso {id}"},
    "held.way": {"en": "that choice is not offered now: the page shows the ones there are",
                 "it": "questa scelta ora non c'è: la pagina mostra quelle possibili"},
    "write.missing": {"en": "write {player}'s card", "it": "scrivete la carta di {player}"},
    "decision.none": {"en": "there is no decision {id} to take back",
                      "it": "nessuna decisione {id} da annullare"},
    "decision.late": {"en": "the game has gone on since that decision: undo it on the History "
                            "page",
                      "it": "la partita è andata avanti dopo quella decisione: annullate dalla "
                            "pagina Storico"},
    "way.continue": {"en": "The cards are back in place: go on",
                     "it": "Le carte sono tornate a posto: continua"},
    "way.swap": {"en": "It was a swap between {player} and {target}",
                 "it": "Era uno scambio tra {player} e {target}"},
    "way.unseen": {"en": "Was there a swap between {a} and {b}?",
                   "it": "C'è stato uno scambio tra {a} e {b}?"},
    "way.unseen_yes": {"en": "Yes: we put the cards back", "it": "Sì: le rimettiamo a posto"},
    "way.unseen_no": {"en": "No: every card is where it was",
                      "it": "Nessuno scambio: sono al loro posto"},
    "way.redeal": {"en": "Deal again", "it": "Ridai le carte"},
    "way.redeal_note": {"en": "the hand does not count, and the same dealer deals again",
                        "it": "la mano non vale, e lo stesso mazziere ridà le carte"},
    "way.draw": {"en": "It was a draw: {player} drew the {card:card}",
                 "it": "Era una pescata: {player} ha pescato {card:il}"},
    "way.correct": {"en": "Correct the card: {player} holds the {card:card}",
                    "it": "Correggi la carta: {player} ha {card:il}"},
    "way.write": {"en": "Write the hand", "it": "Scrivi la mano"},
    "way.seats": {"en": "Tap each player's place on the picture",
                  "it": "Tocca il posto di ogni giocatore sulla foto"},
    "way.noted": {"en": "Noted: go on", "it": "Visto: si continua"},
    "decided.continue": {"en": "the cards are back in place: the hand goes on",
                         "it": "le carte sono tornate a posto: si continua"},
    "decided.swap": {"en": "{player} swapped with {target} (decided by a person)",
                     "it": "{player} ha scambiato con {target} (deciso a mano)"},
    "decided.unseen_no": {"en": "no swap between {a} and {b}: the hand goes on",
                          "it": "nessuno scambio tra {a} e {b}: si continua"},
    "decided.unseen_yes": {"en": "{a} and {b} swapped their cards, which is not allowed: put "
                                 "them back",
                           "it": "{a} e {b} si sono scambiati le carte, e non è permesso: "
                                 "rimettetele a posto"},
    "decided.draw": {"en": "{player} drew the {card:card} (decided by a person)",
                     "it": "{player} ha pescato {card:il} (deciso a mano)"},
    "decided.correct": {"en": "{player}'s card is the {card:card} (corrected by a person)",
                        "it": "la carta di {player} è {card:il} (corretta a mano)"},
    "decided.noted": {"en": "the warning was noted: the hand goes on",
                      "it": "avviso visto: si continua"},
    "decided.redeal": {"en": "the hand does not count: {dealer} deals again",
                       "it": "la mano non vale: {dealer} ridà le carte"},
    "decided.write": {"en": "the cards written by a person: {cards}",
                      "it": "le carte scritte a mano: {cards}"},
    "decided.resolved": {"en": "resolved on the History page: {how}",
                         "it": "risolto dalla pagina Storico: {how}"},
    "decided.by_demo": {"en": "the demo answered as a family would: {what}",
                        "it": "la demo ha risposto come farebbe una famiglia: {what}"},
    "demo.answers": {"en": "The demo answers by itself in {seconds:g} s, as a family would: "
                           "{what}",
                     "it": "Tra {seconds:g} s la demo risponde da sola, come farebbe una "
                           "famiglia: {what}"},
    # the places named at the first deal (vision.seats.SeatFinder.unsure): the loop warns, a person taps them
    "seats.unseen": {"en": "the camera does not see every player's card of the deal: tap each player's "
                           "place on the picture (Setup page)",
                     "it": "la fotocamera non vede la carta di ogni giocatore: toccate il posto di "
                           "ciascuno sulla foto (pagina Setup)"},
    "seats.more": {"en": "the deal shows more places than players (something on the table was read as a "
                         "card): tap each player's place on the picture (Setup page)",
                   "it": "la distribuzione mostra più posti che giocatori (qualcosa sul tavolo sembrava "
                         "una carta): toccate il posto di ciascuno sulla foto (pagina Setup)"},
    "seats.close": {"en": "two places lie too close together to tell whose is whose: tap each player's "
                          "place on the picture (Setup page)",
                    "it": "due posti sono troppo vicini per dire di chi è ciascuno: toccate il posto "
                          "di ogni giocatore sulla foto (pagina Setup)"},
    "seats.order": {"en": "the cards were not seen dealt round the table in order: tap each player's "
                          "place on the picture (Setup page)",
                    "it": "le carte non si sono viste distribuire in ordine attorno al tavolo: toccate il "
                          "posto di ogni giocatore sulla foto (pagina Setup)"},
    "seats.stock": {"en": "the deck lies by another place than the one the deal ended at, or was not "
                          "seen before the deal: tap each player's place on the picture (Setup page)",
                    "it": "il mazzo sta davanti a un posto diverso da quello dove è finita la "
                          "distribuzione, o non si è visto prima: toccate il posto di ogni giocatore "
                          "sulla foto (pagina Setup)"},
    "loop.stopped": {"en": "the live loop stopped: {error}",
                     "it": "la lettura delle immagini si è fermata per un errore: riavviate il "
                           "server (il terminale dice quale)"},
    "seats.failed": {"en": "{error}",
                     "it": "i posti al tavolo non vanno: segnateli di nuovo sulla pagina Setup"},
})
"""The live package's own codes, in each language."""


class Coded(Exception):
    """A refusal raised as a code with parameters (a table registered with `referee.wording`); the
    message is its English."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(word(code, params, "en"))
        self.code, self.params = code, params

    def words(self, language: str = "it") -> str:
        """The refusal in `language`."""
        return word(self.code, self.params, language)


def card_json(card: Card, language: str) -> dict[str, str]:
    """A card for a page: its code and its name in `language`."""
    return {"code": card.code, "name": card.italian if language == "it" else card.english}
