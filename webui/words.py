"""What the pages say, in Italian and English: the pages' own words, and the web companion's codes
(events, verdicts, refusals, the live loop's statuses), registered with `referee.wording`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from referee.wording import Message, euros, register, word

import vision.source  # noqa: F401  (registers the camera's statuses, which the pages word too)

LANGUAGES = ("it", "en")
"""Italian first: the families are Neapolitan."""


def verdict_words(result: HandResult) -> tuple[str, str]:
    """The verdict as spoken: `Carla loses a life` / `Carla perde una vita`."""
    return _both(verdict(result))


def verdict(result: HandResult) -> Message:
    """The verdict as a code (`verdict.one`: Carla loses a life)."""
    if result.void:
        return Message("verdict.void")
    losers = list(result.losers)
    if not losers:
        return Message("verdict.nobody")
    if len(losers) == 1:
        return Message("verdict.one", {"player": losers[0]})
    return Message("verdict.many", {"losers": losers})


def event_words(event: Event) -> tuple[str, str]:
    """One event in words, for the history and the undo button: English, Italian."""
    return _both(told(event))


def _both(message: Message) -> tuple[str, str]:
    return message.words("en"), message.words("it")


def told(event: Event) -> Message:
    """One event as a code, for the history and the undo button."""
    if isinstance(event, FaceUp):
        return Message("history.face_up", {"player": event.player, "card": event.card.code})
    if isinstance(event, ChooseDealer):
        return Message("history.first_dealer", {"player": event.player})
    if isinstance(event, Deal):
        return Message("history.deal")
    if isinstance(event, Keep):
        return Message("told.keep", {"player": event.player})
    if isinstance(event, Swap):
        if event.target:
            return Message("told.swap", {"player": event.player, "other": event.target})
        return Message("history.swap", {"player": event.player})
    if isinstance(event, Draw):
        return Message("history.draw", {"player": event.player})
    if isinstance(event, Reveal):
        return Message("history.reveal")
    if isinstance(event, Settle):
        return Message("history.settle")
    if isinstance(event, Revive):
        return Message("history.revive", {"living": event.living, "dead": event.dead})
    if isinstance(event, Correct):
        return Message("history.correct", {"player": event.player, "card": event.card.code})
    if isinstance(event, Join):
        if event.before:
            return Message("history.join_before", {"player": event.player,
                                                   "before": event.before})
        return Message("history.join", {"player": event.player})
    if isinstance(event, Leave):
        return Message("history.leave", {"player": event.player})
    return Message("history.event", {"name": type(event).__name__})


EVENING_WORDS: dict[str, dict[str, str]] = {
    "title": {"it": "Serata", "en": "Evening"},
    "games": {"it": "Le partite", "en": "The games"},
    "net": {"it": "Chi vince e chi perde", "en": "Who is up, who is down"},
    "payments": {"it": "Chi dà a chi", "en": "Who pays whom"},
    "chart": {"it": "Vite mano per mano", "en": "Lives hand by hand"},
    "picture": {"it": "La serata in un'immagine", "en": "The evening in one picture"},
    "share": {"it": "Condividi l'immagine", "en": "Share the picture"},
    "next": {"it": "Nuova partita", "en": "Next game"},
    "next_anyway": {"it": "Lascia questa partita senza vincitore e comincia la prossima",
                   "en": "Leave this game without a winner and start the next"},
    "confirm_anyway": {"it": "La partita non è finita: non conterà. Cominciare la prossima?",
                      "en": "The game is not over: it will not count. Start the next?"},
    "players": {"it": "Giocatori della prossima partita", "en": "Players of the next game"},
    "stake": {"it": "Posta per vita dalla prossima partita (€)",
             "en": "Stake per life from the next game (€)"},
    "export": {"it": "Scarica la serata (JSON)", "en": "Download the evening (JSON)"},
    "html": {"it": "Scarica la serata (pagina che si apre senza internet)",
            "en": "Download the evening (a page that opens offline)"},
    "import": {"it": "Carica una serata (JSON)", "en": "Load an evening (JSON)"},
    "confirm_import": {"it": "Caricare questa serata? Quella di ora resta salvata in un file a parte.",
                      "en": "Load this evening? The current one stays saved in a file of its own."},
    "game": {"it": "Partita", "en": "Game"},
    "in_play": {"it": "in corso", "en": "in play"},
    "split": {"it": "si dividono il piatto", "en": "share the pot"},
    "deciding": {"it": "La mano decisiva", "en": "The deciding hand"},
    "settled": {"it": "Nessuno deve niente", "en": "Nobody owes anything"},
    "stake_now": {"it": "posta", "en": "stake"},
    "dealer_next": {"it": "Fa le carte", "en": "Deals"},
}
"""The evening page's words (webui.evening), in Italian and in English: `ev_` in PAGE_WORDS."""


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
        "start": "Nuova serata", "confirm_new": "Iniziare una nuova serata? Quella di ora "
                 "resta salvata in un file a parte.",
        "seats": "Posti al tavolo", "seats_help": "Tocca la foto dove siede ciascun "
                 "giocatore, in ordine", "seats_save": "Salva i posti", "seats_next": "Tocca "
                 "il posto di", "seats_done": "Tutti i posti sono segnati",
        "camera_start": "Accendi la fotocamera", "camera_stop": "Spegni",
        "camera_sent": "fotogrammi inviati", "camera_https": "Il browser apre la fotocamera "
                       "solo su HTTPS: avvia il server con --https e apri l'indirizzo https.",
        "camera_awake": "Questo browser non può tenere acceso lo schermo: nelle impostazioni del "
                        "telefono allunga il tempo di blocco dello schermo (o toglilo finché si "
                        "gioca).",
        "camera_back": "La fotocamera è ripartita",
        "aim_all": "Tutti e {n} i posti si vedono",
        "aim_cut": "Posti fuori dall'inquadratura: {names}. Sposta il telefono",
        "aim_before": "I posti si trovano alla prima distribuzione: tieni le carte di tutti "
                      "dentro la cornice",
        "edge_left": "a sinistra", "edge_right": "a destra", "edge_top": "in alto",
        "edge_bottom": "in basso",
        "light_dark": "Troppo buio per leggere le carte: accendi una luce o la torcia",
        "light_blurred": "Immagine sfocata: le carte non si leggono; pulisci l'obiettivo o "
                         "tieni fermo il telefono",
        "torch_on": "Accendi la torcia", "torch_off": "Spegni la torcia",
        "battery": "Batteria {level}%", "battery_charging": "in carica",
        "battery_low": "collegalo alla corrente",
        "pace": "{rate} al secondo", "link_slow": "collegamento lento: immagine ridotta",
        "phone": "Telefono", "phone_size": "immagini {width}×{height}",
        "rate": "{rate} immagini al secondo", "rate_low": "ne servono almeno {needed}",
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
        "held": "Mano ferma: decidete voi", "held_moment": "Quando si è fermata",
        "asked": "Da controllare: decidete voi",
        "held_now": "Adesso", "take_back": "Annulla", "decided": "Deciso",
        "write_help": "Tocca una carta per correggerla", "choose_card": "Scegli la carta",
        "evening": "Serata", **{f"ev_{k}": said["it"] for k, said in EVENING_WORDS.items()},
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
        "rules": "Rules", "stake": "Stake per life (€)", "start": "New evening",
        "confirm_new": "Start a new evening? The current one stays saved in a file of its own.",
        "seats": "Seats at the table", "seats_help": "Tap the picture where each player "
                 "sits, in order", "seats_save": "Save the seats", "seats_next": "Tap the "
                 "seat of", "seats_done": "Every seat is placed",
        "camera_start": "Start the camera", "camera_stop": "Stop",
        "camera_sent": "frames sent", "camera_https": "The browser opens the camera only "
                       "over HTTPS: start the server with --https and open the https address.",
        "camera_awake": "This browser cannot keep the screen on: in the phone's settings make the "
                        "screen lock wait longer (or turn it off while you play).",
        "camera_back": "The camera started again",
        "aim_all": "All {n} places are in view",
        "aim_cut": "Places out of the picture: {names}. Move the phone",
        "aim_before": "The places are found at the first deal: keep everyone's cards inside the "
                      "frame",
        "edge_left": "on the left", "edge_right": "on the right", "edge_top": "at the top",
        "edge_bottom": "at the bottom",
        "light_dark": "Too dark to read the cards: turn on a light or the torch",
        "light_blurred": "The picture is blurred: the cards cannot be read; clean the lens or "
                         "keep the phone still",
        "torch_on": "Turn the torch on", "torch_off": "Turn the torch off",
        "battery": "Battery {level}%", "battery_charging": "charging",
        "battery_low": "plug it in",
        "pace": "{rate} a second", "link_slow": "slow link: smaller picture",
        "phone": "Phone", "phone_size": "pictures {width}×{height}",
        "rate": "{rate} pictures a second", "rate_low": "at least {needed} are needed",
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
        "held": "The hand is held: you decide", "held_moment": "When it stopped",
        "asked": "To check: you decide",
        "held_now": "Now", "take_back": "Take back", "decided": "Decided",
        "write_help": "Tap a card to correct it", "choose_card": "Choose the card",
        "evening": "Evening", **{f"ev_{k}": said["en"] for k, said in EVENING_WORDS.items()},
    },
}
"""Every word the pages print, by language (the scripts get the same table)."""


WEB_WORDS: dict[str, dict[str, str]] = register({
    # the history's events and the verdicts (webui.state)
    "history.face_up": {"en": "{player} gets the {card:card} face up",
                        "it": "{player} riceve scoperto {card:il}"},
    "history.first_dealer": {"en": "{player} is the first dealer",
                             "it": "{player} fa le carte per cominciare"},
    "history.deal": {"en": "The deal", "it": "Si danno le carte"},
    "history.swap": {"en": "{player} swaps", "it": "{player} scambia"},
    "history.draw": {"en": "{player} draws from the stock", "it": "{player} pesca dal mazzo"},
    "history.reveal": {"en": "The cards are revealed", "it": "Le carte vengono scoperte"},
    "history.settle": {"en": "The hand is settled", "it": "La mano è chiusa"},
    "history.revive": {"en": "{living} gives {dead} a life", "it": "{living} dà una vita {dead:a}"},
    "history.correct": {"en": "{player}'s card is the {card:card} (corrected)",
                        "it": "La carta di {player} è {card:il} (corretta)"},
    "history.join": {"en": "{player} joins the table", "it": "{player} si siede al tavolo"},
    "history.join_before": {"en": "{player} joins the table before {before}",
                            "it": "{player} si siede al tavolo prima di {before}"},
    "history.leave": {"en": "{player} leaves the table", "it": "{player} si alza dal tavolo"},
    "history.event": {"en": "{name}", "it": "{name}"},
    "verdict.void": {"en": "Void hand: nobody pays, the same dealer deals again",
                     "it": "Mano nulla: nessuno paga, lo stesso mazziere rifà le carte"},
    "verdict.nobody": {"en": "Nobody pays: only Re and Cavalli",
                       "it": "Nessuno paga: solo Re e Cavalli"},
    "verdict.one": {"en": "{player} loses a life", "it": "{player} perde una vita"},
    "verdict.many": {"en": "{losers:and} lose a life each", "it": "{losers:and} perdono una vita"},
    "page.no_game": {"en": "Set up the players to start",
                     "it": "Scegli i giocatori per cominciare"},
    # the table's own refusals (webui.table.TableError)
    "table.no_game": {"en": "no game yet: set up the players first",
                      "it": "nessuna partita: scegliete prima i giocatori"},
    "table.no_warning": {"en": "there is no open warning {id}",
                         "it": "non c'è un avviso aperto numero {id}"},
    "table.no_phone": {"en": "this table is not reading a phone camera: start the server without "
                             "--camera (or with --camera phone)",
                       "it": "questo tavolo non legge la fotocamera di un telefono: avviate il "
                             "server senza --camera (o con --camera phone)"},
    "seats.no_game": {"en": "set up the players before placing their seats",
                      "it": "scegliete i giocatori prima di segnare i posti"},
    "seats.size": {"en": "the picture's width and height must be whole positive numbers",
                   "it": "larghezza e altezza dell'immagine sono numeri interi positivi"},
    "seats.stranger": {"en": "{name} is not at the table", "it": "{name} non è al tavolo"},
    "seats.point": {"en": "{name}'s seat must be a point [x, y]",
                    "it": "il posto di {name} è un punto [x, y]"},
    "seats.outside": {"en": "{name}'s seat lies outside the {width}x{height} picture",
                      "it": "il posto di {name} è fuori dall'immagine di {width}x{height}"},
    "seats.missing": {"en": "tap a seat for every player: {players:list} missing",
                      "it": "segnate il posto di ogni giocatore; ancora senza posto: "
                            "{players:list}"},
    # the places named at the first deal (vision.seats.SeatFinder.unsure): a person taps them
    "seats.unseen": {"en": "the camera does not see every player's card of the deal: tap each player's "
                           "place on the picture (Setup page)",
                     "it": "la fotocamera non vede la carta di ogni giocatore: toccate il posto di "
                           "ciascuno sulla foto (pagina Setup)"},
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
    # the PIN (webui.guard)
    "pin.needed": {"en": "this change needs the table PIN",
                   "it": "per questa modifica serve il PIN del tavolo"},
    "pin.wrong": {"en": "wrong PIN", "it": "PIN sbagliato"},
    "pin.wait": {"en": "too many wrong PINs: wait {seconds:.0f} s and try again",
                 "it": "troppi PIN sbagliati: aspettate {seconds:.0f} s e riprovate"},
    # a frame from the phone (webui.uploads)
    "frame.too_big": {"en": "the frame is too big: {size} kB, at most {most} kB",
                      "it": "l'immagine è troppo grande: {size} kB, al massimo {most} kB"},
    "frame.not_jpeg": {"en": "the frame is not a JPEG picture",
                       "it": "l'immagine non è un JPEG"},
    "frame.cut": {"en": "the JPEG frame is cut short (no end marker)",
                  "it": "l'immagine JPEG è tagliata (manca la fine)"},
    "frame.broken": {"en": "the JPEG frame is corrupt (a broken segment)",
                     "it": "l'immagine JPEG è rovinata (un segmento rotto)"},
    "frame.sides": {"en": "the frame is {width}x{height} pixels: each side must be 1 to {most}",
                    "it": "l'immagine è di {width}x{height} pixel: ogni lato va da 1 a {most}"},
    "frame.no_size": {"en": "the JPEG frame is corrupt (no picture size before the image data)",
                      "it": "l'immagine JPEG è rovinata (manca la sua misura)"},
    # the API's own
    "event.invalid": {"en": "not an event: {detail}",
                      "it": "non è una mossa che si possa registrare ({detail})"},
    "picture.none": {"en": "no picture from the camera yet",
                     "it": "nessuna immagine dalla fotocamera per ora"},
    "http.not_found": {"en": "there is no page at this address",
                       "it": "a questo indirizzo non c'è nessuna pagina"},
    "http.refused": {"en": "{name}", "it": "il server non può fare questa richiesta (HTTP "
                                          "{status})"},
    "http.too_big": {"en": "the upload is too big: at most {most} MB",
                     "it": "l'invio è troppo grande: al massimo {most} MB"},
    "server.crash": {"en": "the server could not do that (the error is in its log)",
                     "it": "il server non è riuscito a farlo (l'errore è nel suo registro)"},
    # the referee's refusals that carry no code yet: their English is the detail
    "refused.record": {"en": "{detail}", "it": "la partita caricata non si può usare ({detail})"},
    "refused.store": {"en": "{detail}", "it": "il file della partita non accetta la modifica "
                                              "({detail})"},
    "refused.rules": {"en": "{detail}", "it": "regole che non si possono usare ({detail})"},
    "refused.card": {"en": "{detail}", "it": "carta sconosciuta ({detail})"},
    "refused.other": {"en": "{detail}", "it": "richiesta rifiutata ({detail})"},
    # a held hand's ways on (webui.held, webui.ways)
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
    # the evening (webui.evening, referee.evening)
    "evening.not_over": {"en": "this game is not over yet: finish it, or leave it without a "
                               "winner", "it": "questa partita non è ancora finita: finitela, o "
                                               "lasciatela senza vincitore"},
    "evening.shape": {"en": "an evening lists 1 to {most} games under \"games\"",
                      "it": "una serata elenca da 1 a {most} partite sotto \"games\""},
    "evening.no_record": {"en": "game {game}: no hand record", "it": "partita {game}: manca "
                                                                     "la registrazione delle mani"},
    "evening.record": {"en": "game {game}: {why}", "it": "partita {game}: {why}"},
    "evening.record_hand": {"en": "game {game}, hand {hand}: {why}",
                            "it": "partita {game}, mano {hand}: {why}"},
    "evening.payment": {"en": "{payer} gives {payee} {cents:euros}", "it": "{payer} dà {cents:euros} {payee:a}"},
    "evening.stake": {"en": "game {game}: the stake {stake} is not 0 to 1000 euros in cents",
                      "it": "partita {game}: la posta {stake} non è da 0 a 1000 euro in "
                            "centesimi"},
    "evening.pot": {"en": "game {game} does not add up: it says the pot is {stated}, its hands "
                          "give {found}",
                    "it": "la partita {game} non torna: dice che il piatto è {stated}, le mani "
                          "danno {found}"},
    "evening.winner": {"en": "game {game} does not add up: it says {stated} won, its hands give "
                             "{found}",
                       "it": "la partita {game} non torna: dice che ha vinto {stated}, le mani "
                             "danno {found}"},
    "evening.net": {"en": "game {game} does not add up: for {player} it says {stated} €, its "
                          "hands give {found:g} €",
                    "it": "la partita {game} non torna: per {player} dice {stated} €, le mani "
                          "danno {found:g} €"},
    "evening.total": {"en": "the evening does not add up: for {player} it says {stated} €, its "
                            "games give {found:g} €",
                      "it": "la serata non torna: per {player} dice {stated} €, le partite "
                            "danno {found:g} €"},
    "demo.answers": {"en": "The demo answers by itself in {seconds:g} s, as a family would: "
                           "{what}",
                     "it": "Tra {seconds:g} s la demo risponde da sola, come farebbe una "
                           "famiglia: {what}"},
})
"""The web companion's own codes, in each language."""

CAMERA_WORDS: dict[str, dict[str, str]] = register({
    "place.demo": {"en": "the demo films", "it": "i filmati della demo"},
    "demo.film": {"en": "demo: the film {name} ({players})",
                  "it": "demo: il filmato {name} ({players})"},
    "demo.next_in": {"en": "demo: the next game starts in {seconds:g} s",
                     "it": "demo: la prossima partita comincia tra {seconds:g} s"},
    "demo.ended": {"en": "the demo films have ended", "it": "i filmati della demo sono finiti"},
    "demo.next_game": {"en": "The next game starts in a moment",
                       "it": "Tra poco comincia la prossima partita"},
    "demo.missing": {"en": "the demo films are missing from {folder} ({names}): reinstall from a "
                           "complete checkout",
                     "it": "mancano i filmati della demo in {folder} ({names}): reinstallate da "
                           "una copia completa"},
    "camera.none": {"en": "no camera is connected", "it": "nessuna fotocamera collegata"},
    "loop.stopped": {"en": "the live loop stopped: {error}",
                     "it": "la lettura delle immagini si è fermata per un errore: riavviate il "
                           "server (il terminale dice quale)"},
    "seats.failed": {"en": "{error}",
                     "it": "i posti al tavolo non vanno: segnateli di nuovo sulla pagina Setup"},
})
"""The live loop's own camera statuses (beside vision.source's), in each language."""


def say(code: str, params: Mapping[str, Any], language: str = "it") -> str:
    """A code of any table in `language` ("it" or "en"; `referee.wording.word`, Italian first)."""
    return word(code, params, language)


def payment_words(payer: str, payee: str, cents: int) -> tuple[str, str]:
    """A payment that settles the evening: `Bruno gives Anna €1.50` / `Bruno dà 1,50 € ad Anna`."""
    said = {"payer": payer, "payee": payee, "cents": cents}
    return word("evening.payment", said, "en"), word("evening.payment", said, "it")


def headed(hand: int | None, text: str, language: str = "it") -> str:
    """A line of the page about hand `hand` (`Mano 2: ...`), or `text` itself."""
    return text if hand is None else f"{PAGE_WORDS[language]['hand']} {hand}: {text}"


class Coded(Exception):
    """A refusal the web companion raises as a code with parameters (WEB_WORDS); the message
    is its English."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(say(code, params, "en"))
        self.code, self.params = code, params

    def words(self, language: str = "it") -> str:
        """The refusal in `language`."""
        return say(self.code, self.params, language)
