"""What the pages say, in Italian and English: events, verdicts, and the pages' own words."""

from __future__ import annotations

from referee.events import (
    ChooseDealer,
    Correct,
    Deal,
    Draw,
    Event,
    FaceUp,
    Join,
    Keep,
    Leave,
    Reveal,
    Revive,
    Settle,
    Swap,
)
from referee.game import HandResult

LANGUAGES = ("it", "en")
"""Italian first: the families are Neapolitan."""


def _a(name: str) -> str:
    """Italian `a`, or `ad` before an a, as Italians write it today: `ad Anna`, `a Elena`."""
    return f"ad {name}" if name[:1].lower() == "a" else f"a {name}"


def _the(card: str) -> str:
    """A card's Italian name with its article: `il Tre di Coppe`, `l'Asso di Denari`."""
    return f"l'{card}" if card[:1].lower() in "aeiou" else f"il {card}"


def _names(players: list[str] | tuple[str, ...], conj: str) -> str:
    if len(players) <= 1:
        return "".join(players)
    return ", ".join(players[:-1]) + f" {conj} {players[-1]}"


def verdict_words(result: HandResult) -> tuple[str, str]:
    """The verdict as spoken: `Carla loses a life` / `Carla perde una vita`."""
    if result.void:
        return ("Void hand: nobody pays, the same dealer deals again",
                "Mano nulla: nessuno paga, lo stesso mazziere rifà le carte")
    losers = list(result.losers)
    if not losers:
        return ("Nobody pays: only Re and Cavalli", "Nessuno paga: solo Re e Cavalli")
    if len(losers) == 1:
        return f"{losers[0]} loses a life", f"{losers[0]} perde una vita"
    return (f"{_names(losers, 'and')} lose a life each",
            f"{_names(losers, 'e')} perdono una vita")


def event_words(event: Event) -> tuple[str, str]:
    """One event in words, for the history and the undo button."""
    if isinstance(event, FaceUp):
        return (f"{event.player} gets the {event.card.italian} face up",
                f"{event.player} riceve scoperto {_the(event.card.italian)}")
    if isinstance(event, ChooseDealer):
        return (f"{event.player} is the first dealer",
                f"{event.player} fa le carte per cominciare")
    if isinstance(event, Deal):
        return "The deal", "Si danno le carte"
    if isinstance(event, Keep):
        return f"{event.player} keeps", f"{event.player} tiene la carta"
    if isinstance(event, Swap):
        with_en = f" with {event.target}" if event.target else ""
        with_it = f" con {event.target}" if event.target else ""
        return f"{event.player} swaps{with_en}", f"{event.player} scambia{with_it}"
    if isinstance(event, Draw):
        return f"{event.player} draws from the stock", f"{event.player} pesca dal mazzo"
    if isinstance(event, Reveal):
        return "The cards are revealed", "Le carte vengono scoperte"
    if isinstance(event, Settle):
        return "The hand is settled", "La mano è chiusa"
    if isinstance(event, Revive):
        return (f"{event.living} gives {event.dead} a life",
                f"{event.living} dà una vita {_a(event.dead)}")
    if isinstance(event, Correct):
        return (f"{event.player}'s card is the {event.card.italian} (corrected)",
                f"La carta di {event.player} è {_the(event.card.italian)} (corretta)")
    if isinstance(event, Join):
        where_en = f" before {event.before}" if event.before else ""
        where_it = f" prima di {event.before}" if event.before else ""
        return (f"{event.player} joins the table{where_en}",
                f"{event.player} si siede al tavolo{where_it}")
    if isinstance(event, Leave):
        return f"{event.player} leaves the table", f"{event.player} si alza dal tavolo"
    name = type(event).__name__
    return name, name


PAGE_WORDS: dict[str, dict[str, str]] = {
    "it": {
        "title": "Saltacavallo", "table": "Tavolo", "live": "Live", "history": "Storico",
        "setup": "Setup", "camera": "Fotocamera", "pot": "Piatto", "lives": "vite",
        "dealer": "Mazziere", "dead": "fuori", "sound_on": "Audio sì", "sound_off": "Audio no",
        "hand": "Mano", "loser": "paga", "verdict": "Verdetto", "no_photo": "nessuna foto",
        "offline": "Connessione persa: riprovo…", "warnings": "Avvisi",
        "resolve": "Risolto", "undo": "Annulla l'ultima mossa", "last_event": "Ultima mossa",
        "corrections": "Correzioni", "export": "Scarica la partita (JSON)",
        "import": "Carica una partita (JSON)", "pin": "PIN del tavolo",
        "pin_ask": "Scrivi il PIN del tavolo (lo mostra il computer all'avvio)",
        "pin_wrong": "PIN sbagliato", "saved": "Fatto", "players": "Giocatori",
        "players_help": "Un nome per riga, nell'ordine in cui siedono, girando verso destra "
                        "(antiorario)",
        "first_dealer": "Primo mazziere", "by_camera": "La fotocamera (carte scoperte)",
        "rules": "Regole", "stake": "Posta per vita (€)",
        "start": "Nuova partita", "confirm_new": "Iniziare una nuova partita? Quella di ora "
                 "resta salvata in un file a parte.",
        "seats": "Posti al tavolo", "seats_help": "Tocca la foto dove siede ciascun "
                 "giocatore, in ordine", "seats_save": "Salva i posti", "seats_next": "Tocca "
                 "il posto di", "seats_done": "Tutti i posti sono segnati",
        "camera_start": "Accendi la fotocamera", "camera_stop": "Spegni",
        "camera_sent": "fotogrammi inviati", "camera_https": "Il browser apre la fotocamera "
                       "solo su HTTPS: avvia il server con --https e apri l'indirizzo https.",
        "camera_status": "Stato della fotocamera", "no_picture": "Nessuna immagine dalla "
                         "fotocamera per ora", "open_camera": "Usa questo telefono come "
                         "fotocamera", "open_table": "Apri il tavolo su un altro telefono",
        "revive": "Ridai una vita", "revive_dead": "Chi torna in gioco",
        "revive_living": "Chi cede una delle sue vite", "join": "Qualcuno si siede al tavolo",
        "leave": "Qualcuno si alza dal tavolo", "fix_card": "Carta letta male", "apply": "Applica",
        "player": "Chi", "name": "Nome", "card": "Carta", "after": "dopo", "nothing_yet": "Nessuna mano "
        "giocata finora", "turn": "Tocca a", "cards": "Carte", "evidence": "Foto",
        "lives_after": "Vite dopo la mano", "winner": "Vince", "phase": "Fase",
        "swaps": "Scambi", "none": "nessuno", "language": "English", "other_lang": "en",
        "preset_napoli": "Napoli (predefinite)", "preset_classica": "Classica",
        "switches": "Varianti", "lives_start": "Vite a testa", "back": "Torna al tavolo",
        "error": "Qualcosa non va", "not_found": "Pagina non trovata",
        "play": "Registra a mano", "event_json": "Mossa (JSON)",
        "phase_choose_dealer": "Scelta del mazziere", "phase_deal": "Si danno le carte",
        "phase_turns": "Turni", "phase_dealer": "Tocca al mazziere",
        "phase_reveal": "Si scoprono le carte", "phase_settle": "Chi paga",
        "phase_over": "Fine della partita", "wall": "Re: muro", "jumped": "Cavallo: saltato",
        "your_turn": "di turno", "cam_off": "spenta", "cam_connecting": "in collegamento",
        "cam_live": "in diretta", "cam_reconnecting": "si ricollega", "cam_ended": "finita",
        "cam_failed": "non funziona", "join_before": "Siede prima di",
        "join_last": "(in fondo)", "sound_ready": "Audio attivo", "undo_confirm": "Annullare "
        "questa mossa?", "how": "Com'è stato risolto?", "no_game": "Nessuna partita: "
        "apri Setup per scegliere i giocatori",
    },
    "en": {
        "title": "Saltacavallo", "table": "Table", "live": "Live", "history": "History",
        "setup": "Setup", "camera": "Camera", "pot": "Pot", "lives": "lives",
        "dealer": "Dealer", "dead": "out", "sound_on": "Sound on", "sound_off": "Sound off",
        "hand": "Hand", "loser": "pays", "verdict": "Verdict", "no_photo": "no photo",
        "offline": "Connection lost: retrying…", "warnings": "Warnings",
        "resolve": "Resolved", "undo": "Undo the last event", "last_event": "Last event",
        "corrections": "Corrections", "export": "Download the game (JSON)",
        "import": "Load a game (JSON)", "pin": "Table PIN",
        "pin_ask": "Type the table PIN (the computer shows it at start)",
        "pin_wrong": "Wrong PIN", "saved": "Done", "players": "Players",
        "players_help": "One name a line, in seating order, going to the right "
                        "(counterclockwise)",
        "first_dealer": "First dealer", "by_camera": "The camera (cards face up)",
        "rules": "Rules", "stake": "Stake per life (€)", "start": "New game",
        "confirm_new": "Start a new game? The current one stays saved in a file of its own.",
        "seats": "Seats at the table", "seats_help": "Tap the picture where each player "
                 "sits, in order", "seats_save": "Save the seats", "seats_next": "Tap the "
                 "seat of", "seats_done": "Every seat is placed",
        "camera_start": "Start the camera", "camera_stop": "Stop",
        "camera_sent": "frames sent", "camera_https": "The browser opens the camera only "
                       "over HTTPS: start the server with --https and open the https address.",
        "camera_status": "Camera status", "no_picture": "No picture from the camera yet",
        "open_camera": "Use this phone as the camera", "open_table": "Open the table on "
                       "another phone",
        "revive": "Give back a life", "revive_dead": "Who comes back",
        "revive_living": "Who gives the life", "join": "A player joins",
        "leave": "A player leaves", "fix_card": "Misread card", "apply": "Apply",
        "player": "Player", "name": "Name", "card": "Card", "after": "after", "nothing_yet": "No hand played "
        "yet", "turn": "Turn of", "cards": "Cards", "evidence": "Photo",
        "lives_after": "Lives after the hand", "winner": "Wins", "phase": "Phase",
        "swaps": "Swaps", "none": "none", "language": "Italiano", "other_lang": "it",
        "preset_napoli": "Napoli (default)", "preset_classica": "Classica",
        "switches": "Variants", "lives_start": "Lives each", "back": "Back to the table",
        "error": "Something is wrong", "not_found": "Page not found",
        "play": "Record by hand", "event_json": "Event (JSON)",
        "phase_choose_dealer": "Choosing the dealer", "phase_deal": "Dealing",
        "phase_turns": "Turns", "phase_dealer": "The dealer's move",
        "phase_reveal": "Revealing the cards", "phase_settle": "Who pays",
        "phase_over": "Game over", "wall": "Re: a wall", "jumped": "Cavallo: jumped",
        "your_turn": "to play", "cam_off": "off", "cam_connecting": "connecting",
        "cam_live": "live", "cam_reconnecting": "reconnecting", "cam_ended": "ended",
        "cam_failed": "failed", "join_before": "Sits before",
        "join_last": "(last)", "sound_ready": "Sound on", "undo_confirm": "Undo this event?",
        "how": "How was it resolved?", "no_game": "No game yet: open Setup to choose the "
        "players",
    },
}
"""Every word the pages print, by language (the scripts get the same table)."""
