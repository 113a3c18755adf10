"""What the pages say, in Italian and English: the pages' own words, and the web companion's codes
(events, verdicts, refusals, the demo's statuses), registered with `referee.wording`; the held hand's
and the live loop's codes are `live.words`'."""

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


PAGE_WORDS: dict[str, dict[str, str]] = register({
    "page.title": {"en": "Saltacavallo", "it": "Saltacavallo"},
    "page.table": {"en": "Table", "it": "Tavolo"},
    "page.live": {"en": "Live", "it": "Live"},
    "page.history": {"en": "History", "it": "Storico"},
    "page.setup": {"en": "Setup", "it": "Setup"},
    "page.camera": {"en": "Camera", "it": "Fotocamera"},
    "page.pot": {"en": "Pot", "it": "Piatto"},
    "page.lives": {"en": "lives", "it": "vite"},
    "page.dealer": {"en": "Dealer", "it": "Mazziere"},
    "page.dead": {"en": "out", "it": "fuori"},
    "page.sound_on": {"en": "Sound on", "it": "Audio sì"},
    "page.sound_off": {"en": "Sound off", "it": "Audio no"},
    "page.hand": {"en": "Hand", "it": "Mano"},
    "page.loser": {"en": "pays", "it": "paga"},
    "page.verdict": {"en": "Verdict", "it": "Verdetto"},
    "page.no_photo": {"en": "no photo", "it": "nessuna foto"},
    "page.offline": {"en": "Connection lost: retrying…", "it": "Connessione persa: riprovo…"},
    "page.warnings": {"en": "Warnings", "it": "Avvisi"},
    "page.resolve": {"en": "Resolved", "it": "Risolto"},
    "page.undo": {"en": "Undo the last event", "it": "Annulla l'ultima mossa"},
    "page.last_event": {"en": "Last event", "it": "Ultima mossa"},
    "page.corrections": {"en": "Corrections", "it": "Correzioni"},
    "page.export": {"en": "Download the game (JSON)", "it": "Scarica la partita (JSON)"},
    "page.import": {"en": "Load a game (JSON)", "it": "Carica una partita (JSON)"},
    "page.pin": {"en": "Table PIN", "it": "PIN del tavolo"},
    "page.pin_ask": {"en": "Type the table PIN (the computer shows it at start)",
                     "it": "Scrivi il PIN del tavolo (lo mostra il computer all'avvio)"},
    "page.pin_wrong": {"en": "Wrong PIN", "it": "PIN sbagliato"},
    "page.saved": {"en": "Done", "it": "Fatto"},
    "page.players": {"en": "Players", "it": "Giocatori"},
    "page.players_help": {"en": "One name a line, in seating order, going to the right "
                                "(counterclockwise)",
                          "it": "Un nome per riga, nell'ordine in cui siedono, girando verso "
                                "destra (antiorario)"},
    "page.first_dealer": {"en": "First dealer", "it": "Primo mazziere"},
    "page.by_camera": {"en": "The camera (cards face up)", "it": "La fotocamera (carte scoperte)"},
    "page.rules": {"en": "Rules", "it": "Regole"},
    "page.stake": {"en": "Stake per life (€)", "it": "Posta per vita (€)"},
    "page.start": {"en": "New evening", "it": "Nuova serata"},
    "page.confirm_new": {"en": "Start a new evening? The current one stays saved in a file of its "
                               "own.",
                         "it": "Iniziare una nuova serata? Quella di ora resta salvata in un file "
                               "a parte."},
    "page.seats": {"en": "Seats at the table", "it": "Posti al tavolo"},
    "page.seats_help": {"en": "Tap the picture where each player sits, in order",
                        "it": "Tocca la foto dove siede ciascun giocatore, in ordine"},
    "page.seats_save": {"en": "Save the seats", "it": "Salva i posti"},
    "page.seats_next": {"en": "Tap the seat of", "it": "Tocca il posto di"},
    "page.seats_done": {"en": "Every seat is placed", "it": "Tutti i posti sono segnati"},
    "page.camera_start": {"en": "Start the camera", "it": "Accendi la fotocamera"},
    "page.camera_stop": {"en": "Stop", "it": "Spegni"},
    "page.camera_sent": {"en": "frames sent", "it": "fotogrammi inviati"},
    "page.camera_https": {"en": "The browser opens the camera only over HTTPS: start the server "
                                "with --https and open the https address.",
                          "it": "Il browser apre la fotocamera solo su HTTPS: avvia il server con "
                                "--https e apri l'indirizzo https."},
    "page.camera_awake": {"en": "This browser cannot keep the screen on: in the phone's settings "
                                "make the screen lock wait longer (or turn it off while you "
                                "play).",
                          "it": "Questo browser non può tenere acceso lo schermo: nelle "
                                "impostazioni del telefono allunga il tempo di blocco dello "
                                "schermo (o toglilo finché si gioca)."},
    "page.camera_back": {"en": "The camera started again", "it": "La fotocamera è ripartita"},
    "page.aim_all": {"en": "All {n} places are in view", "it": "Tutti e {n} i posti si vedono"},
    "page.aim_cut": {"en": "Places out of the picture: {names}. Move the phone",
                     "it": "Posti fuori dall'inquadratura: {names}. Sposta il telefono"},
    "page.aim_steep": {"en": "The phone leans too far: cards shown cannot be read. Raise it over the "
                             "table, or stand it higher",
                       "it": "Il telefono è troppo inclinato: le carte scoperte non si leggono. "
                             "Alzalo sopra il tavolo, o mettilo più in alto"},
    "page.aim_before": {"en": "The places are found at the first deal: keep everyone's cards "
                              "inside the frame",
                        "it": "I posti si trovano alla prima distribuzione: tieni le carte di "
                              "tutti dentro la cornice"},
    "page.edge_left": {"en": "on the left", "it": "a sinistra"},
    "page.edge_right": {"en": "on the right", "it": "a destra"},
    "page.edge_top": {"en": "at the top", "it": "in alto"},
    "page.edge_bottom": {"en": "at the bottom", "it": "in basso"},
    "page.light_dark": {"en": "Too dark to read the cards: turn on a light or the torch",
                        "it": "Troppo buio per leggere le carte: accendi una luce o la torcia"},
    "page.light_blurred": {"en": "The picture is blurred: the cards cannot be read; clean the lens "
                                 "or keep the phone still",
                           "it": "Immagine sfocata: le carte non si leggono; pulisci l'obiettivo o "
                                 "tieni fermo il telefono"},
    "page.torch_on": {"en": "Turn the torch on", "it": "Accendi la torcia"},
    "page.torch_off": {"en": "Turn the torch off", "it": "Spegni la torcia"},
    "page.battery": {"en": "Battery {level}%", "it": "Batteria {level}%"},
    "page.battery_charging": {"en": "charging", "it": "in carica"},
    "page.battery_low": {"en": "plug it in", "it": "collegalo alla corrente"},
    "page.pace": {"en": "{rate} a second", "it": "{rate} al secondo"},
    "page.link_slow": {"en": "slow link: smaller picture",
                       "it": "collegamento lento: immagine ridotta"},
    "page.phone": {"en": "Phone", "it": "Telefono"},
    "page.phone_size": {"en": "pictures {width}×{height}", "it": "immagini {width}×{height}"},
    "page.rate": {"en": "{rate} pictures a second", "it": "{rate} immagini al secondo"},
    "page.rate_low": {"en": "at least {needed} are needed", "it": "ne servono almeno {needed}"},
    "page.camera_status": {"en": "Camera status", "it": "Stato della fotocamera"},
    "page.no_picture": {"en": "No picture from the camera yet",
                        "it": "Nessuna immagine dalla fotocamera per ora"},
    "page.open_camera": {"en": "Use this phone as the camera",
                         "it": "Usa questo telefono come fotocamera"},
    "page.open_table": {"en": "Open the table on another phone",
                        "it": "Apri il tavolo su un altro telefono"},
    "page.revive": {"en": "Give back a life", "it": "Ridai una vita"},
    "page.revive_dead": {"en": "Who comes back", "it": "Chi torna in gioco"},
    "page.revive_living": {"en": "Who gives the life", "it": "Chi cede una delle sue vite"},
    "page.join": {"en": "A player joins", "it": "Qualcuno si siede al tavolo"},
    "page.leave": {"en": "A player leaves", "it": "Qualcuno si alza dal tavolo"},
    "page.fix_card": {"en": "Misread card", "it": "Carta letta male"},
    "page.apply": {"en": "Apply", "it": "Applica"},
    "page.player": {"en": "Player", "it": "Chi"},
    "page.name": {"en": "Name", "it": "Nome"},
    "page.card": {"en": "Card", "it": "Carta"},
    "page.after": {"en": "after", "it": "dopo"},
    "page.nothing_yet": {"en": "No hand played yet", "it": "Nessuna mano giocata finora"},
    "page.turn": {"en": "Turn of {player}", "it": "Tocca {player:a}"},
    "page.cards": {"en": "Cards", "it": "Carte"},
    "page.evidence": {"en": "Photo", "it": "Foto"},
    "page.lives_after": {"en": "Lives after the hand", "it": "Vite dopo la mano"},
    "page.winner": {"en": "Wins", "it": "Vince"},
    "page.phase": {"en": "Phase", "it": "Fase"},
    "page.swaps": {"en": "Swaps", "it": "Scambi"},
    "page.none": {"en": "none", "it": "nessuno"},
    "page.language": {"en": "Italiano", "it": "English"},
    "page.other_lang": {"en": "it", "it": "en"},
    "page.preset_napoli": {"en": "Napoli (default)", "it": "Napoli (predefinite)"},
    "page.preset_classica": {"en": "Classica", "it": "Classica"},
    "page.switches": {"en": "Variants", "it": "Varianti"},
    "page.lives_start": {"en": "Lives each", "it": "Vite a testa"},
    "page.back": {"en": "Back to the table", "it": "Torna al tavolo"},
    "page.error": {"en": "Something is wrong", "it": "Qualcosa non va"},
    "page.not_found": {"en": "Page not found", "it": "Pagina non trovata"},
    "page.play": {"en": "Record by hand", "it": "Registra a mano"},
    "page.event_json": {"en": "Event (JSON)", "it": "Mossa (JSON)"},
    "page.phase_choose_dealer": {"en": "Choosing the dealer", "it": "Scelta del mazziere"},
    "page.phase_deal": {"en": "Dealing", "it": "Si danno le carte"},
    "page.phase_turns": {"en": "Turns", "it": "Turni"},
    "page.phase_dealer": {"en": "The dealer's move", "it": "Tocca al mazziere"},
    "page.phase_reveal": {"en": "Revealing the cards", "it": "Si scoprono le carte"},
    "page.phase_settle": {"en": "Who pays", "it": "Chi paga"},
    "page.phase_over": {"en": "Game over", "it": "Fine della partita"},
    "page.wall": {"en": "Re: a wall", "it": "Re: muro"},
    "page.jumped": {"en": "Cavallo: jumped", "it": "Cavallo: saltato"},
    "page.your_turn": {"en": "to play", "it": "di turno"},
    "page.cam_off": {"en": "off", "it": "spenta"},
    "page.cam_connecting": {"en": "connecting", "it": "in collegamento"},
    "page.cam_live": {"en": "live", "it": "in diretta"},
    "page.cam_reconnecting": {"en": "reconnecting", "it": "si ricollega"},
    "page.cam_ended": {"en": "ended", "it": "finita"},
    "page.cam_failed": {"en": "failed", "it": "non funziona"},
    "page.join_before": {"en": "Sits before", "it": "Siede prima di"},
    "page.join_last": {"en": "(last)", "it": "(in fondo)"},
    "page.sound_ready": {"en": "Sound on", "it": "Audio attivo"},
    "page.undo_confirm": {"en": "Undo this event?", "it": "Annullare questa mossa?"},
    "page.how": {"en": "How was it resolved?", "it": "Com'è stato risolto?"},
    "page.no_game": {"en": "No game yet: open Setup to choose the players",
                     "it": "Nessuna partita: apri Setup per scegliere i giocatori"},
    "page.held": {"en": "The hand is held: you decide", "it": "Mano ferma: decidete voi"},
    "page.held_moment": {"en": "When it stopped", "it": "Quando si è fermata"},
    "page.asked": {"en": "To check: you decide", "it": "Da controllare: decidete voi"},
    "page.held_now": {"en": "Now", "it": "Adesso"},
    "page.take_back": {"en": "Take back", "it": "Annulla"},
    "page.decided": {"en": "Decided", "it": "Deciso"},
    "page.write_help": {"en": "Tap a card to correct it", "it": "Tocca una carta per correggerla"},
    "page.choose_card": {"en": "Choose the card", "it": "Scegli la carta"},
    "page.evening": {"en": "Evening", "it": "Serata"},
    # the evening page (webui.evening)
    "page.ev_title": {"en": "Evening", "it": "Serata"},
    "page.ev_games": {"en": "The games", "it": "Le partite"},
    "page.ev_net": {"en": "Who is up, who is down", "it": "Chi vince e chi perde"},
    "page.ev_payments": {"en": "Who pays whom", "it": "Chi dà a chi"},
    "page.ev_chart": {"en": "Lives hand by hand", "it": "Vite mano per mano"},
    "page.ev_picture": {"en": "The evening in one picture", "it": "La serata in un'immagine"},
    "page.ev_share": {"en": "Share the picture", "it": "Condividi l'immagine"},
    "page.ev_next": {"en": "Next game", "it": "Nuova partita"},
    "page.ev_next_anyway": {"en": "Leave this game without a winner and start the next",
                            "it": "Lascia questa partita senza vincitore e comincia la prossima"},
    "page.ev_confirm_anyway": {"en": "The game is not over: it will not count. Start the next?",
                               "it": "La partita non è finita: non conterà. Cominciare la "
                                     "prossima?"},
    "page.ev_players": {"en": "Players of the next game", "it": "Giocatori della prossima partita"},
    "page.ev_stake": {"en": "Stake per life from the next game (€)",
                      "it": "Posta per vita dalla prossima partita (€)"},
    "page.ev_export": {"en": "Download the evening (JSON)", "it": "Scarica la serata (JSON)"},
    "page.ev_html": {"en": "Download the evening (a page that opens offline)",
                     "it": "Scarica la serata (pagina che si apre senza internet)"},
    "page.ev_import": {"en": "Load an evening (JSON)", "it": "Carica una serata (JSON)"},
    "page.ev_confirm_import": {"en": "Load this evening? The current one stays saved in a file of "
                                     "its own.",
                               "it": "Caricare questa serata? Quella di ora resta salvata in un "
                                     "file a parte."},
    "page.ev_game": {"en": "Game", "it": "Partita"},
    "page.ev_in_play": {"en": "in play", "it": "in corso"},
    "page.ev_deciding": {"en": "The deciding hand", "it": "La mano decisiva"},
    "page.ev_settled": {"en": "Nobody owes anything", "it": "Nessuno deve niente"},
    "page.ev_stake_now": {"en": "stake", "it": "posta"},
    "page.ev_dealer_next": {"en": "Deals", "it": "Fa le carte"},
})
"""Every word the pages print, named `page.` and its name (`page_words` gives them in one
language, by name, to the templates and the scripts)."""


def chosen(*asked: str | None) -> str:
    """The first of `asked` that is a language the pages speak (`?lang=`, the `lang` cookie), or
    Italian."""
    return next((language for language in asked if language in LANGUAGES), LANGUAGES[0])


def page_words(language: str = "it") -> dict[str, str]:
    """Every word the pages print in `language`, by its name (`pot` for `page.pot`): the
    templates' `w` and the scripts' `WORDS`. A word with a field (`{rate} a second`) comes as it
    is written, for the script that knows the value to fill."""
    language = language if language in LANGUAGES else LANGUAGES[0]
    return {code.removeprefix("page."): said[language] for code, said in PAGE_WORDS.items()}


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
    "table.start": {"en": "Set up the players to start",
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
    "evening.won": {"en": "{winner} wins", "it": "vince {winner}"},
    "evening.split": {"en": "{survivors:joined} share the pot",
                      "it": "{survivors:joined} si dividono il piatto"},
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
})
"""The demo's camera statuses, and the table's before any camera (beside vision.source's and
live.words'), in each language."""


def say(code: str, params: Mapping[str, Any], language: str = "it") -> str:
    """A code of any table in `language` ("it" or "en"; `referee.wording.word`, Italian first)."""
    return word(code, params, language)


def headed(hand: int | None, text: str, language: str = "it") -> str:
    """A line of the page about hand `hand` (`Mano 2: ...`), or `text` itself."""
    return text if hand is None else f"{PAGE_WORDS['page.hand'][language]} {hand}: {text}"
