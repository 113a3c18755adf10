"""The one wording engine: every sentence the companion says (a refusal, a warning, the narration,
the page's view) is a code with parameters, worded in Italian or English: the code travels (to the
store, the page, `watch --json`); the words are made where a person reads them, in that person's
language. The referee's codes are here; vision and webui `register` their own tables.

A parameter is plain data (text, a number, a list, None) or another message (a `Message`, or its
JSON `{"code": ..., "params": ...}`), worded in the same language. A field may name how its value
is said: `{card:card}` a card code's name, `{card:il}` with its Italian article, `{due:a}` the
Italian `a`/`ad` before a name, `{players:list}` and `{players:and}` a list of names, `{action:verb}`
the move a player may not make, `{jumps:after}` and `{jumps:then}` the Cavalli a walk jumps,
`{gap:tenths}` seconds to a tenth (a decimal comma in Italian), `{cards:codes}` each player's card
code (`Anna 1C, Bruno 10S`), `{losers:joined}` and `{choices:or}` names joined by `and` or `or` alone.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import parse_card

LANGUAGES = ("it", "en")
"""Italian first: the families are Neapolitan."""


@dataclass(frozen=True, slots=True)
class Message:
    """A sentence not yet worded: its code and the values it names."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def words(self, language: str = "en") -> str:
        """The sentence in `language` ("it" or "en")."""
        return word(self.code, self.params, language)

    def to_json(self) -> dict[str, Any]:
        """`{"code": ..., "params": ...}`, nested messages as JSON too."""
        return {"code": self.code, "params": plain(self.params)}


def plain(value: Any) -> Any:
    """`value` as JSON data: a `Message` becomes its JSON, a tuple a list."""
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def is_message(value: object) -> bool:
    """Whether `value` is a message or a message's JSON."""
    return isinstance(value, Message) or (isinstance(value, Mapping) and isinstance(
        value.get("code"), str) and isinstance(value.get("params", {}), Mapping))


def as_message(value: Message | Mapping[str, Any]) -> Message:
    """A message, from itself or its JSON."""
    if isinstance(value, Message):
        return value
    return Message(str(value["code"]), dict(value.get("params") or {}))


# -- how a field is said -----------------------------------------------------------------------

def _a(name: str) -> str:
    """Italian `a`, or `ad` before an a, as Italians write it today: `ad Anna`, `a Elena`."""
    return f"ad {name}" if name[:1].lower() == "a" else f"a {name}"


def _card(code: Any, language: str) -> str:
    return parse_card(str(code)).italian  # the Neapolitan names, in both languages


def the_card(code: Any, language: str) -> str:
    """A card's name with its article: `l'Asso di Coppe`, `il Re di Denari` (`the ...` in English)."""
    name = _card(code, language)
    if language != "it":
        return f"the {name}"
    return f"l'{name}" if name[:1].lower() in "aeiou" else f"il {name}"


def _kind(code: Any, language: str) -> str:
    return "Re" if parse_card(str(code)).is_wall else "Cavallo"


def _list(names: Sequence[Any], language: str) -> str:
    return ", ".join(str(n) for n in names) or ("nessuno" if language == "it" else "nobody")


def _or(names: Sequence[Any], language: str) -> str:
    return (" o " if language == "it" else " or ").join(str(n) for n in names)


def _joined(names: Sequence[Any], language: str) -> str:
    return (" e " if language == "it" else " and ").join(str(n) for n in names)


def _codes(cards: Mapping[str, Any], language: str) -> str:
    return ", ".join(f"{player} {code}" for player, code in cards.items())


def _and(names: Sequence[Any], language: str) -> str:
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + (" e " if language == "it" else " and ") + names[-1]


_VERBS = {"keep": "tenere la carta", "swap": "scambiare", "draw": "pescare",
          "join": "sedersi", "leave": "alzarsi"}
"""The moves a refusal names, as an Italian infinitive."""


def _verb(action: Any, language: str) -> str:
    return _VERBS.get(str(action), str(action)) if language == "it" else str(action)


def _jumped(jumps: Sequence[Sequence[Any]], language: str) -> str:
    if language == "it":
        return " e ".join(f"salta {the_card(card, language)} di {player}" for player, card in jumps)
    return " and ".join(f"{player}'s {_card(card, language)} is jumped" for player, card in jumps)


def _after(jumps: Sequence[Sequence[Any]], language: str) -> str:
    return f": {_jumped(jumps, language)}" if jumps else ""


def _then(jumps: Sequence[Sequence[Any]], language: str) -> str:
    then = ", poi " if language == "it" else ", then "
    return f"{_jumped(jumps, language)}{then}" if jumps else ""


def euros(cents: Any, language: str = "it") -> str:
    """Money (a whole number of cents) as each language writes it: `1.234,50 €` in Italian, `€1,234.50` in English."""
    cents = int(cents)
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    if language == "it":
        return f"{sign}{whole:,}".replace(",", ".") + f",{part:02d} €"
    return f"{sign}€{whole:,}.{part:02d}"


def _tenths(seconds: Any, language: str) -> str:
    text = f"{float(seconds):.1f}"
    return text.replace(".", ",") if language == "it" else text


SPECS: dict[str, Callable[[Any, str], str]] = {
    "card": _card, "il": the_card, "kind": _kind, "a": lambda name, lang: _a(str(name)) if lang == "it"
    else str(name), "list": _list, "and": _and, "verb": _verb, "after": _after, "then": _then,
    "tenths": _tenths, "joined": _joined, "or": _or, "codes": _codes, "euros": euros,
}
"""How a field may be said (`{field:spec}`); any other spec is Python's (`{confidence:.2f}`)."""


class _Formatter(string.Formatter):
    """str.format in one language: specs from SPECS, nested messages worded alike."""

    def __init__(self, language: str, table: Callable[[str, Mapping[str, Any], str], str]) -> None:
        super().__init__()
        self.language = language
        self.table = table

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in SPECS:
            return SPECS[format_spec](value, self.language)
        if is_message(value):
            message = as_message(value)
            return self.table(message.code, message.params, self.language)
        return format(value, format_spec)


def fill(template: str, params: Mapping[str, Any], language: str,
         table: Callable[[str, Mapping[str, Any], str], str] | None = None) -> str:
    """`template` with its fields filled in `language`; nested messages worded by `table`."""
    return _Formatter(language, table or word).vformat(template, (), dict(params))


def word(code: str, params: Mapping[str, Any], language: str = "en") -> str:
    """The sentence of a code in `language` (KeyError for a code in no table registered)."""
    return fill(WORDS[code][language if language in LANGUAGES else "en"], params, language)


def register(table: Mapping[str, Mapping[str, str]]) -> Mapping[str, Mapping[str, str]]:
    """Add a package's codes (vision's, webui's) to WORDS, so that `word` says them: `table`
    itself. A code already worded otherwise is refused: one code, one sentence."""
    clash = sorted(code for code in table if code in WORDS and WORDS[code] != table[code])
    if clash:
        raise ValueError(f"codes worded twice: {', '.join(clash)}")
    WORDS.update(table)
    return table


def first_dealer_card(selection: str) -> Message:
    """The card that makes the first dealer, by the rules' `dealer_selection`: `the Re di Denari`,
    `the second Denari`."""
    return Message(f"first_dealer.{selection}")


HAND = {"en": "hand {hand}: ", "it": "mano {hand}: "}
"""What a sentence about one hand begins with (the hand's number)."""


def about(hand: int | None, text: str, language: str = "en") -> str:
    """`text` about hand `hand` (`hand 2: ...`), or as it is when it is about no hand."""
    if hand is None:
        return text
    return HAND[language if language in HAND else "en"].format(hand=hand) + text


RAISED: dict[str, dict[str, str]] = {
    # -- what the camera's referee warns of (referee.observe) ---------------------------------
    "card.unread": {"en": "{player}'s face-up card cannot be read: name it by hand",
                    "it": "la carta scoperta di {player} non si legge: indicatela a mano"},
    "card.unread_guess": {"en": "{player}'s face-up card cannot be read (it reads {card} at "
                                "{confidence:.2f}): name it by hand",
                          "it": "la carta scoperta di {player} non si legge (sembra {card}): "
                                "indicatela a mano"},
    "seat.missing": {"en": "{player}'s card is missing from {player}'s seat",
                     "it": "manca la carta di {player}"},
    "seat.dead": {"en": "a card lies at {player}'s seat, but {player} is dead and gets no card",
                  "it": "c'è una carta al posto di {player}, che non ha più vite e non riceve "
                        "carte"},
    "face_up.refused": {"en": "{why}", "it": "carta scoperta fuori regola: {why}"},
    "deal.refused": {"en": "{why}", "it": "carte da controllare: {why}"},
    "reveal.refused": {"en": "{why}", "it": "le carte scoperte non tornano: {why}"},
    "draw.refused": {"en": "{why}", "it": "pescata da controllare: {why}"},
    "draw.unseen": {"en": "{dealer} drew a card the camera did not read: say what {dealer} "
                          "holds",
                    "it": "{dealer} ha pescato una carta che la fotocamera non ha letto: dite "
                          "voi che carta ha"},
    "cards.two_seats": {"en": "the same card {card} at two seats: {first} and {second}",
                        "it": "la stessa carta {card} a due posti: {first} e {second}"},
    "card.reads_otherwise": {"en": "{player}'s card now reads {card}, but {read} was read before: "
                                   "correct it if it is so",
                             "it": "la carta di {player} ora si legge {card}, ma prima si leggeva "
                                   "{read}: correggetela se è così"},
    "sink.refused": {"en": "{why}", "it": "{why} (rifiutato)"},
    "seats.off": {"en": "no card lies at {players:and}'s place while a card turned up lies at no "
                        "player's place: put each card at its place, or tap each place on the picture "
                        "(Setup page) if the places are wrong",
                  "it": "al posto di {players:and} non c'è nessuna carta, mentre una carta scoperta "
                        "non sta al posto di nessuno: rimettete ogni carta al suo posto, o toccate "
                        "il posto di ogni giocatore sulla foto (pagina Setup) se i posti sono sbagliati"},
    # the turns' (referee.observe.turns)
    "shown.moved": {"en": "{owner}'s {card:card} shown at the deal has moved (a {card:kind} that "
                          "moved): put it back face up, or undo to the deal",
                    "it": "{card:il} di {owner}, scoperto alla distribuzione, si è mosso: "
                          "rimettetelo scoperto al suo posto, o annullate fino alla "
                          "distribuzione"},
    "shown.moved_to": {"en": "{owner}'s {card:card} shown at the deal has moved and lies at "
                             "{seat}'s seat (a {card:kind} that moved): put it back face up, or "
                             "undo to the deal",
                       "it": "{card:il} di {owner}, scoperto alla distribuzione, si è mosso al "
                             "posto di {seat}: rimettetelo scoperto al suo posto, o annullate "
                             "fino alla distribuzione"},
    "shown.late": {"en": "{player} turns up the {card:card} after the deal: a Re or a Cavallo is "
                         "shown at once, so the walls were told without it; undo to the deal "
                         "and deal it again",
                   "it": "{player} scopre {card:il} dopo la distribuzione: va mostrato subito; "
                         "annullate fino alla distribuzione"},
    "moves.not_one_swap": {"en": "cards moved between {players:list}, not as one swap: put them "
                                 "back, or resolve it by hand",
                           "it": "carte spostate tra {players:list}, non come uno scambio: "
                                 "rimettetele a posto, o risolvete a mano"},
    "moves.not_followed": {"en": "cards moved between {players:list}, not as one swap, and the camera "
                                 "could not follow which card went where: say what was played",
                           "it": "carte spostate tra {players:list}, non come uno scambio, e la "
                                 "fotocamera non ha seguito quale carta è andata dove: dite voi cosa "
                                 "è stato giocato"},
    "swap.undo": {"en": "{why} (undo the swap on the table)",
                  "it": "{why} (rifate lo scambio al contrario)"},
    "draw.undo": {"en": "{why} (put his card back)", "it": "{why} (rimettete la sua carta)"},
    "sight.lost": {"en": "the camera saw nothing for {gap:tenths} s during the turns: a swap may "
                         "have been made unseen; say what was played",
                   "it": "la fotocamera non ha visto nulla per {gap:tenths} s durante i turni: "
                         "uno scambio può esserle sfuggito; dite voi cosa è stato giocato"},
    "swap.unseen": {"en": "{a}'s and {b}'s cards were both under the hands at once: the camera "
                          "cannot tell whether they were swapped, which is not allowed; say "
                          "whether they were",
                    "it": "le carte di {a} e di {b} erano coperte insieme: la fotocamera non sa "
                          "se sono state scambiate, e non è permesso; ditelo voi"},
    "swap.unread": {"en": "{a}'s card lay unread at its seat while {b}'s left its seat or lay under a hand before the deal "
                          "was counted: the camera cannot tell whether they were swapped, which is not "
                          "allowed; say whether they were",
                    "it": "la carta di {a} non si leggeva al suo posto mentre quella di {b} lasciava il "
                          "suo o stava sotto una mano, prima che la distribuzione fosse contata: la fotocamera non sa se sono "
                          "state scambiate, e non è permesso; ditelo voi"},
    # a person's answer (live.held): two cards exchanged under the hands, not allowed
    "swap.put_back": {"en": "{a}'s and {b}'s cards were swapped under the hands, which is not "
                            "allowed: put them back, then say so",
                      "it": "le carte di {a} e di {b} sono state scambiate sotto le mani, e "
                            "non è permesso: rimettetele a posto, poi ditelo"},
    # the controller's (referee.observe.controller)
    "pictures.slow": {"en": "the camera gives {rate:.0f} pictures a second: at least {needed} are "
                            "needed to follow a hand",
                      "it": "la fotocamera dà {rate:.0f} immagini al secondo: ne servono almeno "
                            "{needed}"},
    "ask.played": {"en": "{why}; say what was played",
                   "it": "{why}; dite voi cosa è stato giocato"},
}
"""Every code the live loop raises as a warning or a hold (referee.observe, live.held),
in each language: each has a way on at the table page (live.ways)."""

TOLD: dict[str, dict[str, str]] = {
    # -- the first dealer chosen by cards dealt face up (referee.observe.deal) -----------------
    "told.face_up": {"en": "{player} gets the {card:card} face up",
                     "it": "{player} riceve {card:il} scoperto"},
    "told.first_dealer": {"en": "{dealer} gets {card} and deals first",
                          "it": "{dealer} riceve {card} e fa le carte"},
    "first_dealer.re_di_denari": {"en": "the Re di Denari", "it": "il Re di Denari"},
    "first_dealer.second_denari": {"en": "the second Denari", "it": "il secondo Denari"},
    # -- the deal -----------------------------------------------------------------------------
    "told.deal": {"en": "Hand {hand}: {dealer} deals", "it": "Mano {hand}: {dealer} fa le carte"},
    "told.wall": {"en": "{player} shows the {card:card}: a wall",
                  "it": "{player} ha {card:il}: fa da muro"},
    "told.jumped": {"en": "{player} shows the {card:card}: jumped",
                    "it": "{player} ha {card:il}: viene saltato"},
    # -- the turns (referee.observe.turns, context) -------------------------------------------
    "told.keep": {"en": "{player} keeps", "it": "{player} tiene la carta"},
    "told.swap": {"en": "{player} swaps with {other}", "it": "{player} scambia con {other}"},
    "told.swap_refused": {"en": "{player} swaps with {other}: not allowed",
                          "it": "{player} scambia con {other}: non è permesso"},
    "told.draw_blind": {"en": "{dealer} draws blind from the stock",
                        "it": "{dealer} pesca alla cieca dal mazzo"},
    # -- the reveal and the settlement (referee.observe.showdown) -----------------------------
    "told.draw": {"en": "{dealer} draws the {card:card}", "it": "{dealer} pesca {card:il}"},
    "told.reveal": {"en": "Hand {hand}: everyone reveals: {faces:codes}",
                    "it": "Mano {hand}: tutti scoprono: {faces:codes}"},
    "told.void": {"en": "Hand {hand} is void: nobody pays, {dealer} deals again; pot {pot}",
                  "it": "Mano {hand} nulla: nessuno paga, {dealer} rifà le carte; piatto {pot}"},
    "told.nobody_pays": {"en": "Hand {hand}: only Re and Cavalli, nobody pays; pot {pot}",
                         "it": "Mano {hand}: solo Re e Cavalli, nessuno paga; piatto {pot}"},
    "told.pays": {"en": "Hand {hand}: {losers:joined} pays a life; pot {pot}",
                  "it": "Mano {hand}: {losers:joined} paga una vita; piatto {pot}"},
    "told.pay": {"en": "Hand {hand}: {losers:joined} pay a life; pot {pot}",
                 "it": "Mano {hand}: {losers:joined} pagano una vita; piatto {pot}"},
}
"""What the camera's referee narrates as the hand goes (referee.observe), in each language."""

VIEW: dict[str, dict[str, str]] = {
    # -- the headline (referee.describe) ------------------------------------------------------
    "view.won": {"en": "{winner} wins the pot of {pot}", "it": "{winner} vince il piatto di {pot}"},
    "view.split": {"en": "{a} and {b} split the pot of {pot}",
                   "it": "{a} e {b} si dividono il piatto di {pot}"},
    "view.choosing": {"en": "Choosing the first dealer: whoever gets {card} deals",
                      "it": "Si sceglie il mazziere: fa le carte chi riceve {card}"},
    "view.turn": {"en": "Hand {hand}: {player}'s turn", "it": "Mano {hand}: tocca {player:a}"},
    "view.dealer": {"en": "Hand {hand}: {dealer}, the dealer, keeps or draws",
                    "it": "Mano {hand}: il mazziere {dealer} tiene o pesca"},
    "view.reveal": {"en": "Hand {hand}: everyone reveals",
                    "it": "Mano {hand}: tutti scoprono la carta"},
    "view.settle": {"en": "Hand {hand}: the lowest card pays",
                    "it": "Mano {hand}: paga la carta più bassa"},
    # -- each seat: what it may do now, and why -----------------------------------------------
    "view.dead": {"en": "{player} is dead: no card, no turn",
                  "it": "{player} non ha più vite: niente carta, niente turno"},
    "view.dead_revive": {"en": "{player} is dead: no card, no turn; a living player who talks to "
                               "the dead hands over a life",
                         "it": "{player} non ha più vite: niente carta, niente turno; chi gli "
                               "parla deve dargli una vita"},
    "view.wall": {"en": "{player} shows the {card:card}: a wall, safe this hand, no turn",
                  "it": "{player} ha {card:il}: fa da muro, non rischia e non gioca"},
    "view.jumped": {"en": "{player} shows the {card:card}: jumped, safe this hand, no turn",
                    "it": "{player} ha {card:il}: viene saltato, non rischia e non gioca"},
    "view.swapped": {"en": "{player} swapped with {target}",
                     "it": "{player} ha scambiato con {target}"},
    "view.kept": {"en": "{player} kept", "it": "{player} ha tenuto la carta"},
    "view.turn_walk": {"en": "{player}'s turn: {walk}", "it": "tocca {player:a}: {walk}"},
    "view.turn_keep": {"en": "{player}'s turn: {walk}; keep only",
                       "it": "tocca {player:a}: {walk}; tiene"},
    "view.waits": {"en": "waits: then {walk}", "it": "aspetta: poi {walk}"},
    "view.shares": {"en": "{player} shares the pot", "it": "{player} divide il piatto"},
    "view.wins": {"en": "{player} wins the pot", "it": "{player} vince il piatto"},
    "view.face_up": {"en": "{player} gets the next card face up",
                     "it": "{player} riceve la prossima carta scoperta"},
    "view.choosing_wait": {"en": "{player} waits for the first dealer to be chosen",
                           "it": "{player} aspetta la scelta del mazziere"},
    "view.deals": {"en": "{player} deals the next hand", "it": "{player} fa le carte"},
    "view.waits_deal": {"en": "{player} waits for the deal", "it": "{player} aspetta le carte"},
    "view.dealer_blind": {"en": "{player}, the dealer, may keep or draw the top card of the stock "
                                "(blind, before the reveal)",
                          "it": "{player}, il mazziere, può tenere o pescare la prima carta del "
                                "mazzo (alla cieca, prima di scoprire)"},
    "view.dealer_after": {"en": "{player}, the dealer, may keep or draw the top card of the stock "
                                "(after seeing every card)",
                          "it": "{player}, il mazziere, può tenere o pescare la prima carta del "
                                "mazzo (dopo aver visto le carte)"},
    "view.drew": {"en": "{player} drew from the stock", "it": "{player} ha pescato dal mazzo"},
    "view.dealer_last": {"en": "{player} deals and plays last: never swaps, may draw from the "
                               "stock",
                         "it": "{player} fa le carte e gioca per ultimo: non scambia, può "
                               "pescare"},
}
"""What the page's view of a game says (referee.describe): the headline and each seat's why."""

WORDS: dict[str, dict[str, str]] = {
    # -- the table ----------------------------------------------------------------------------
    "table.size": {"en": "a table has {low} to {high} players, not {count}",
                   "it": "al tavolo siedono da {low} a {high} giocatori, non {count}"},
    "table.no_name": {"en": "a player needs a name, not {name}",
                      "it": "ogni giocatore vuole un nome, non {name}"},
    "table.same_name": {"en": "two players have the same name",
                        "it": "due giocatori hanno lo stesso nome"},
    "table.lives": {"en": "lives must be a whole number of at least 1, not {lives}",
                    "it": "le vite sono un numero intero, almeno 1, non {lives}"},
    "table.first_dealer": {"en": "the first dealer {dealer} is not at the table",
                           "it": "il primo mazziere {dealer} non è al tavolo"},
    "event.unknown": {"en": "not an event: {event}", "it": "non è una mossa: {event}"},
    "undo.nothing": {"en": "nothing to undo", "it": "non c'è niente da annullare"},
    "player.absent": {"en": "{player} is not at the table", "it": "{player} non è al tavolo"},
    "game.won": {"en": "the game is over: {winner} won the pot",
                 "it": "la partita è finita: {winner} ha vinto il piatto"},
    "game.split": {"en": "the game is over: {a} and {b} split the pot",
                   "it": "la partita è finita: {a} e {b} si sono divisi il piatto"},
    # -- the first dealer ---------------------------------------------------------------------
    "first_dealer.chosen": {"en": "the first dealer is already chosen: {dealer}",
                            "it": "il primo mazziere è già scelto: {dealer}"},
    "first_dealer.by_cards": {"en": "the first dealer is being chosen by cards dealt face up",
                              "it": "il primo mazziere si sceglie con le carte date scoperte"},
    "face_up.order": {"en": "the face-up cards go counterclockwise: this one goes to {due}, "
                            "not {player}",
                      "it": "le carte scoperte girano in senso antiorario: questa va {due:a}, "
                            "non {player:a}"},
    "face_up.twice": {"en": "a card twice: {card} was already dealt face up",
                      "it": "una carta due volte: {card} è già stata data scoperta"},
    # -- the deal -----------------------------------------------------------------------------
    "deal.no_dealer": {"en": "no dealer yet: deal cards face up or choose the first dealer",
                       "it": "manca il mazziere: date le carte scoperte o scegliete il primo "
                             "mazziere"},
    "deal.hand_open": {"en": "the hand is not over: settle it before the next deal",
                       "it": "la mano non è finita: chiudetela prima di dare di nuovo le carte"},
    "deal.dead": {"en": "{player} is dead and gets no card",
                  "it": "{player} non ha più vite e non riceve carte"},
    "deal.missing": {"en": "{player} has no card in the deal",
                     "it": "{player} è senza carta nella distribuzione"},
    "deal.twice": {"en": "a card twice: {card} is dealt twice",
                   "it": "una carta due volte: {card} è data due volte"},
    "deal.stock_twice": {"en": "a card twice: {player}'s {card} was already played from this "
                               "stock",
                         "it": "una carta due volte: la carta {card} di {player} è già uscita "
                               "da questo mazzo"},
    # -- the turns ----------------------------------------------------------------------------
    "turn.no_hand": {"en": "{player} cannot {action}: no hand is being played",
                     "it": "{player} non può {action:verb}: non si sta giocando nessuna mano"},
    "turn.dead": {"en": "{player} cannot {action}: {player} is dead",
                  "it": "{player} non può {action:verb}: {player} non ha più vite"},
    "turn.shown": {"en": "{player} cannot {action}: {player} shows the {card:card} and takes no "
                         "turn",
                   "it": "{player} non può {action:verb}: {player} ha {card:il} e non gioca"},
    "turn.dealer_last": {"en": "{player} cannot {action} yet: the dealer plays last, it is "
                               "{due}'s turn",
                         "it": "{player} non può ancora {action:verb}: il mazziere gioca per "
                               "ultimo, tocca {due:a}"},
    "turn.over": {"en": "{player} cannot {action}: {player}'s turn is over, it is {due}'s turn",
                  "it": "{player} non può {action:verb}: {player} ha già giocato, tocca {due:a}"},
    "turn.other": {"en": "{player} cannot {action}: it is {due}'s turn",
                   "it": "{player} non può {action:verb}: tocca {due:a}"},
    "turn.reveal": {"en": "{player} cannot {action}: the cards are to be revealed",
                    "it": "{player} non può {action:verb}: ora si scoprono le carte"},
    "turn.done": {"en": "{player} cannot {action}: the turns are over",
                  "it": "{player} non può {action:verb}: i turni sono finiti"},
    "swap.dealer": {"en": "{player} cannot swap: the dealer never swaps, drawing is the dealer's "
                          "only move",
                    "it": "{player} non può scambiare: il mazziere non scambia mai, può solo "
                          "pescare"},
    "swap.not_target": {"en": "{player} cannot swap with {other}: {why}",
                        "it": "{player} non può scambiare con {other}: {why}"},
    "draw.not_dealer": {"en": "{player} cannot draw: only the dealer draws",
                        "it": "{player} non può pescare: pesca solo il mazziere"},
    "draw.twice": {"en": "a card twice: {player} draws {card}, already seen",
                   "it": "una carta due volte: {player} pesca {card}, già vista"},
    # -- the walk to the right (a swap's target, or why there is none) ------------------------
    "walk.target": {"en": "{player} may swap with {target}{jumps:after}",
                    "it": "{player} può scambiare con {target}{jumps:after}"},
    "walk.wall": {"en": "{player} cannot swap: {jumps:then}{blocker} shows the {card:card} (wall)",
                  "it": "{player} non può scambiare: {jumps:then}{blocker} ha {card:il} (muro)"},
    "walk.second_cavallo": {"en": "{player} cannot swap: {jumps:then}{blocker}'s {card:card} is "
                                  "a second Cavallo (horse_chain off: only one jump)",
                            "it": "{player} non può scambiare: {jumps:then}{card:il} di {blocker} "
                                  "è un secondo Cavallo"},
    "walk.passes_dealer": {"en": "{player} cannot swap: {jumps:then}the walk would pass the "
                                 "dealer {dealer} (skip_wraps off)",
                           "it": "{player} non può scambiare: {jumps:then}il giro passerebbe il "
                                 "mazziere {dealer}"},
    "walk.back_to_self": {"en": "{player} cannot swap: {jumps:then}the walk comes back to "
                                "{player}",
                          "it": "{player} non può scambiare: {jumps:then}il giro torna "
                                "{player:a}"},
    # -- the reveal ---------------------------------------------------------------------------
    "reveal.no_hand": {"en": "nothing to reveal: no hand is being played",
                       "it": "niente da scoprire: non si sta giocando nessuna mano"},
    "reveal.early": {"en": "the reveal comes when the turn reaches the dealer: it is {due}'s turn",
                     "it": "si scopre quando il turno arriva al mazziere: tocca {due:a}"},
    "reveal.blind": {"en": "{dealer} draws or keeps before the reveal (blind draw)",
                     "it": "{dealer} pesca o tiene prima che si scopra (pescata alla cieca)"},
    "hand.dead": {"en": "{player} is dead and holds no card",
                  "it": "{player} non ha più vite e non ha carta"},
    "reveal.drew": {"en": "{player} shows {card} at the reveal, but {player} drew {held}",
                    "it": "{player} scopre {card}, ma {player} aveva pescato {held}"},
    "reveal.moved": {"en": "{player} shows {card} at the reveal, but {owner}'s {shown:card} was "
                           "shown at the deal (a {shown:kind} that moved)",
                     "it": "{player} scopre {card}, ma {shown:il} di {owner} era scoperto alla "
                           "distribuzione (un {shown:kind} che si è mosso)"},
    "reveal.disagrees": {"en": "{player} shows {card} at the reveal, but the deal and the swaps "
                               "give {player} {held} (the showdown disagrees with the deal)",
                         "it": "{player} scopre {card}, ma dalla distribuzione e dagli scambi "
                               "risulta {held} (le carte scoperte non tornano con la "
                               "distribuzione)"},
    "reveal.twice": {"en": "a card twice: {player} shows {card} at the reveal, but that card is "
                           "already seen elsewhere",
                     "it": "una carta due volte: {player} scopre {card}, ma quella carta si è "
                           "già vista altrove"},
    "reveal.shown_late": {"en": "{player}'s face-down card is the {card:card}, but a Re or a "
                                "Cavallo is shown at the deal",
                          "it": "la carta coperta di {player} è {card:il}, ma un Re o un Cavallo "
                                "si scopre alla distribuzione"},
    # -- corrections --------------------------------------------------------------------------
    "correct.no_hand": {"en": "{player}'s card cannot be corrected: no hand is being played (a "
                              "card is corrected after the reveal, before the settlement)",
                        "it": "la carta di {player} non si può correggere: non si sta giocando "
                              "nessuna mano (una carta si corregge dopo averla scoperta, prima "
                              "di chiudere la mano)"},
    "correct.early": {"en": "{player}'s card cannot be corrected before the reveal (a card is "
                            "corrected after the reveal, before the settlement)",
                      "it": "la carta di {player} non si può correggere prima che si scopra (una "
                            "carta si corregge dopo averla scoperta, prima di chiudere la mano)"},
    "correct.shown": {"en": "{player}'s {card:card} was shown at the deal and cannot be "
                            "corrected: undo to the deal instead",
                      "it": "{card:il} di {player} era scoperto alla distribuzione e non si "
                            "corregge: annullate fino alla distribuzione"},
    "correct.into_shown": {"en": "{player}'s card cannot be corrected into the {card:card}: a Re "
                                 "or a Cavallo is shown at the deal, so undo to the deal instead",
                           "it": "la carta di {player} non può diventare {card:il}: un Re o un "
                                 "Cavallo si scopre alla distribuzione, quindi annullate fino "
                                 "alla distribuzione"},
    "correct.same": {"en": "nothing to correct: {player}'s card is already {card}",
                     "it": "niente da correggere: la carta di {player} è già {card}"},
    "correct.seen": {"en": "{player}'s card cannot be corrected into {card}: {card} is seen "
                           "elsewhere",
                     "it": "la carta di {player} non può diventare {card}: {card} si vede già "
                           "altrove"},
    # -- the settlement -----------------------------------------------------------------------
    "settle.not_revealed": {"en": "cannot settle: the cards are not revealed yet",
                            "it": "la mano non si chiude: le carte non sono ancora scoperte"},
    "settle.dealer_due": {"en": "cannot settle: {due} has not drawn or kept yet",
                          "it": "la mano non si chiude: {due} non ha ancora pescato o tenuto"},
    "settle.turn": {"en": "cannot settle: it is {due}'s turn",
                    "it": "la mano non si chiude: tocca {due:a}"},
    "settle.no_hand": {"en": "cannot settle: no hand is being played",
                       "it": "la mano non si chiude: non si sta giocando nessuna mano"},
    "settle.unknown": {"en": "cannot settle: {player}'s card is unknown (the reveal must show it)",
                       "it": "la mano non si chiude: la carta di {player} non si conosce (va "
                             "scoperta)"},
    # -- between hands ------------------------------------------------------------------------
    "revive.not_now": {"en": "{dead} cannot be revived now: a revive is recorded between hands",
                       "it": "{dead} non può tornare in gioco ora: una vita si ridà tra una mano "
                             "e l'altra"},
    "revive.off": {"en": "{dead} cannot be revived: revival is off",
                   "it": "{dead} non può tornare in gioco: con queste regole non si ridanno vite"},
    "revive.alive": {"en": "{dead} cannot be revived: {dead} is not dead",
                     "it": "{dead} non può tornare in gioco: {dead} ha ancora vite"},
    "revive.giver_dead": {"en": "{living} cannot give {dead} a life: {living} is dead",
                          "it": "{living} non può dare una vita {dead:a}: {living} non ha più "
                                "vite"},
    "between.choosing": {"en": "{player} cannot {action} now: the first dealer is being chosen "
                               "by cards dealt face up",
                         "it": "{player} non può {action:verb} ora: si sta scegliendo il primo "
                               "mazziere con le carte scoperte"},
    "between.hands": {"en": "{player} cannot {action} now: players {action} between hands",
                      "it": "{player} non può {action:verb} ora: ci si siede e ci si alza solo "
                            "tra una mano e l'altra"},
    "join.seated": {"en": "{player} cannot join: {player} is already at the table",
                    "it": "{player} non può sedersi: {player} è già al tavolo"},
    "join.left": {"en": "{player} cannot join again before a hand is played: {player} left the "
                        "table since the last hand (undo the leave instead)",
                  "it": "{player} non può sedersi di nuovo prima che si giochi una mano: "
                        "{player} ha lasciato il tavolo dopo l'ultima mano (annullate invece "
                        "l'uscita)"},
    "join.before": {"en": "{player} cannot sit before {before}: {before} is not at the table",
                    "it": "{player} non può sedersi prima di {before}: {before} non è al tavolo"},
    "join.full": {"en": "{player} cannot join: a table has at most {most} players",
                  "it": "{player} non può sedersi: al tavolo siedono al massimo {most} "
                        "giocatori"},
    "leave.last_two": {"en": "{player} cannot leave: the game needs two living players and only "
                             "{staying:list} would be left",
                       "it": "{player} non può alzarsi: la partita vuole due giocatori in vita "
                             "e resterebbe solo {staying:list}"},
    # -- a hand record ------------------------------------------------------------------------
    "record.no_turn": {"en": "{player} takes no turn", "it": "{player} non ha un turno"},
    "record.stock_dealt": {"en": "a card twice: {card} is in the stock and dealt to {player}",
                           "it": "una carta due volte: {card} è nel mazzo e data {player:a}"},
    "record.stock_twice": {"en": "a card twice: {card} is twice in the stock",
                           "it": "una carta due volte: {card} è due volte nel mazzo"},
    "record.stock_shown": {"en": "a card twice: {card} is in the stock and {player} shows it at "
                                 "the reveal",
                           "it": "una carta due volte: {card} è nel mazzo e {player} la scopre"},
    # -- the store (two programs writing one game) --------------------------------------------
    "store.other_first": {"en": "{why} (another writer stored event {seq} first)",
                          "it": "{why} (un altro programma ha registrato prima la mossa {seq})"},
    "store.others_first": {"en": "{why} (another writer stored events {first}-{last} first)",
                           "it": "{why} (un altro programma ha registrato prima le mosse "
                                 "{first}-{last})"},
    # -- why the camera's referee undoes a move (swap.undo's and draw.undo's `why`) ---------
    "swap.not_now": {"en": "{player} cannot swap now", "it": "{player} non può scambiare ora"},
    "draw.before_reveal": {"en": "{dealer} cannot draw before the reveal (dealer_draw "
                                 "after_reveal: he draws after seeing every card)",
                           "it": "{dealer} non può pescare prima che tutti scoprano la carta"},
    "draw.not_now": {"en": "{dealer} cannot draw", "it": "{dealer} non può pescare"},
    **RAISED, **TOLD, **VIEW,
}
"""Every code worded, in each language (English as the messages always read): the referee's
own, and those vision and webui `register`."""
