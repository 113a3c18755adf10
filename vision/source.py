"""What every frame source shares: the frame, the status in words, the error, the common face."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from referee.wording import register, word
from vision.io import checked_jpeg, decode_image, grey_thumbnail, reduced_grey

log = logging.getLogger("saltacavallo.frames")

DEFAULT_FPS = 15.0
"""Frames per second given to images and to a video that does not say its own."""


class Frame:
    """One picture from a source: BGR pixels, the time `at` on the source's clock (s), its number.

    A picture that came as JPEG bytes (`Frame.encoded`) is decoded whole only when its pixels are first
    asked for, and its grey thumbnail is decoded at a fraction of its size (`thumbnail`): a frame that
    shows a still table is never decoded whole, and none is decoded twice."""

    __slots__ = ("at", "index", "_pixels", "_jpeg", "_size", "_thumbnail")

    def __init__(self, pixels: np.ndarray, at: float, index: int) -> None:
        self._pixels: np.ndarray | None = pixels
        self._jpeg: bytes | None = None
        self._size = (pixels.shape[1], pixels.shape[0])
        self._thumbnail: tuple[int, np.ndarray] | None = None
        self.at, self.index = at, index

    @classmethod
    def encoded(cls, jpeg: bytes, at: float, index: int) -> Frame:
        """A frame of JPEG bytes, decoded when its pixels are asked for; ImageError when its header, size
        or end do not let it be decoded (`vision.io.checked_jpeg`)."""
        frame = cls.__new__(cls)
        frame._pixels, frame._jpeg, frame._size = None, jpeg, checked_jpeg(jpeg)
        frame._thumbnail = None
        frame.at, frame.index = at, index
        return frame

    @property
    def pixels(self) -> np.ndarray:
        """The BGR pixels, decoded on first use (ImageError when the JPEG's data cannot be)."""
        if self._pixels is None:
            assert self._jpeg is not None
            self._pixels, self._jpeg = decode_image(self._jpeg).pixels, None
        return self._pixels

    @property
    def decoded(self) -> bool:
        """Whether the pixels have been decoded (or came decoded)."""
        return self._pixels is not None

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels, known without decoding."""
        return self._size

    def thumbnail(self, side: int) -> np.ndarray:
        """The grey picture at most `side` pixels on its long side: a JPEG not yet decoded is decoded at an
        eighth, a quarter or a half of its size (the least that is no smaller), then shrunk. Made once per
        side asked for last (a frame's change is judged before it is read)."""
        if self._thumbnail is not None and self._thumbnail[0] == side:
            return self._thumbnail[1]
        if self._pixels is not None:
            look = grey_thumbnail(self._pixels, side)
        else:
            assert self._jpeg is not None
            look = grey_thumbnail(reduced_grey(self._jpeg, max(self._size) / side), side)
        self._thumbnail = (side, look)
        return look


class SourceState(enum.Enum):
    """Where a source stands."""

    CONNECTING = "connecting"
    LIVE = "live"
    RECONNECTING = "reconnecting"
    ENDED = "ended"
    FAILED = "failed"


WORDS: dict[str, dict[str, str]] = register({
    # where the pictures come from (a source's `place`)
    "place.camera": {"en": "camera {index}", "it": "la fotocamera {index}"},
    "place.the_camera": {"en": "the camera", "it": "la fotocamera"},
    "place.camera_at": {"en": "the camera at {address}", "it": "la fotocamera a {address}"},
    "place.stream": {"en": "the stream {url}", "it": "il flusso {url}"},
    "place.phone": {"en": "the phone's camera", "it": "la fotocamera del telefono"},
    "place.video": {"en": "the video {name}", "it": "il video {name}"},
    "place.folder": {"en": "the folder {path}", "it": "la cartella {path}"},
    "place.image": {"en": "the image {name}", "it": "l'immagine {name}"},
    "place.images": {"en": "the images", "it": "le immagini"},
    "place.source": {"en": "a frame source", "it": "una sorgente di immagini"},
    # where a source stands
    "source.opening": {"en": "opening {source}", "it": "si apre {source}"},
    "source.closed": {"en": "{source} closed", "it": "chiuso: {source}"},
    "source.connecting": {"en": "connecting to {where}", "it": "collegamento con {where}"},
    "source.receiving": {"en": "receiving pictures from {where}",
                         "it": "collegamento con {where}: le immagini arrivano"},
    "source.lost": {"en": "lost {where} ({reason}); trying again",
                    "it": "collegamento perso con {where} ({reason}); riprovo"},
    "source.no_answer": {"en": "{where} does not answer ({reason}); trying again",
                         "it": "{where} non risponde ({reason}); riprovo"},
    "source.silent": {"en": "{where} does not answer after {timeout:g} s",
                      "it": "{where} non risponde dopo {timeout:g} s"},
    "source.silent_why": {"en": "{where} does not answer ({reason}) after {timeout:g} s",
                          "it": "{where} non risponde ({reason}) dopo {timeout:g} s"},
    "source.password": {"en": "{where} asks for a password: give it in the address, as "
                              "http://user:password@host:port/...",
                        "it": "{where} chiede una password: scrivetela nell'indirizzo, come "
                              "http://utente:password@host:porta/..."},
    "source.not_found": {"en": "{where} has no stream at {path} (HTTP 404): check the address "
                               "the camera app shows",
                         "it": "{where} non ha un flusso a {path} (HTTP 404): controllate "
                               "l'indirizzo che mostra l'app della fotocamera"},
    "source.not_pictures": {"en": "{where} sends {kind}, not camera pictures: use the address "
                                  "of its video stream (MJPEG)",
                            "it": "{where} manda {kind}, non immagini di una fotocamera: usate "
                                  "l'indirizzo del suo flusso video (MJPEG)"},
    "source.no_boundary": {"en": "the camera's stream ({kind}) names no boundary between its "
                                 "pictures",
                           "it": "il flusso della fotocamera ({kind}) non dice come separa le "
                                 "immagini"},
    "source.part_too_large": {"en": "a picture of {size} bytes is too large for a camera's stream",
                              "it": "un'immagine di {size} byte è troppo grande per il flusso "
                                    "di una fotocamera"},
    "source.waiting": {"en": "waiting for pictures from {where}",
                       "it": "in attesa delle immagini: {where}"},
    "source.stale": {"en": "no picture from {where} for {seconds:g} s (is the page still open?)",
                     "it": "{where}: nessuna immagine da {seconds:g} s (la pagina è ancora "
                           "aperta?)"},
    "source.page_hidden": {"en": "{where}: its page is hidden (the phone locked, or another app in "
                                 "front); it starts again when the page is shown",
                           "it": "{where}: la pagina è nascosta (telefono bloccato o un'altra app "
                                 "davanti); riparte quando la pagina torna in vista"},
    "source.page_stopped": {"en": "{where} stopped (a call, or stopped on its page)",
                            "it": "{where} si è fermata (una chiamata, o spenta dalla pagina)"},
    "source.failed": {"en": "{text}", "it": "la sorgente delle immagini non funziona"},
    "source.reading": {"en": "reading {source}", "it": "lettura in corso: {source}"},
    "source.skipped": {"en": "{name} skipped: {error}",
                       "it": "immagine {name} saltata: non si legge"},
    "source.all_read": {"en": "{source}: all {read} images read",
                        "it": "{source}: lette tutte le {read} immagini"},
    "source.some_read": {"en": "{source}: {read} images read, {skipped} could not be read",
                         "it": "{source}: {read} immagini lette, {skipped} illeggibili"},
    "source.playing": {"en": "playing {source}", "it": "in riproduzione: {source}"},
    "source.ended": {"en": "{source} has ended ({frames} frames)",
                     "it": "finito: {source} ({frames} fotogrammi)"},
    # why a connection failed (a status's `reason`)
    "reason.timeout": {"en": "no data for a while", "it": "nessun dato da un po'"},
    "reason.refused": {"en": "connection refused", "it": "connessione rifiutata"},
    "reason.address": {"en": "unknown address", "it": "indirizzo sconosciuto"},
    "reason.stopped": {"en": "the stream stopped", "it": "il flusso si è interrotto"},
    "reason.ended": {"en": "the stream ended", "it": "il flusso è finito"},
    "reason.unreachable": {"en": "{text}", "it": "rete o indirizzo irraggiungibile"},
    "reason.network": {"en": "{text}", "it": "errore di rete"},
    "reason.http": {"en": "HTTP {status} {phrase}", "it": "HTTP {status}"},
    "reason.parts": {"en": "the stream's pictures are not separated as its header says",
                     "it": "le immagini del flusso non sono separate come dice la sua intestazione"},
    "reason.no_rtsp": {"en": "no RTSP stream there", "it": "nessun flusso RTSP a quell'indirizzo"},
    "reason.no_camera": {"en": "no camera at index {index}",
                         "it": "nessuna fotocamera con il numero {index}"},
})
"""Every status a source gives, as a code worded in English and Italian (`{place}` and `{reason}`
fields hold another code with its parameters), registered with `referee.wording`."""


def coded(code: str, **params: Any) -> dict[str, Any]:
    """A code with its parameters, as a status's field holds it."""
    return {"code": code, "params": params}


@dataclass(frozen=True)
class SourceStatus:
    """A source's state and a sentence about it that a family at the table understands, with
    the same as a code and its parameters (`WORDS`) for a page to word in its language."""

    state: SourceState
    message: str
    code: str = field(default="", compare=False)
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The plain form the web page shows: {"state": "live", "message": "...", "code": ...,
        "params": {...}}."""
        return {"state": self.state.value, "message": self.message, "code": self.code,
                "params": dict(self.params)}


class SourceError(RuntimeError):
    """A source that cannot give frames, with the reason in words (and as a code, when it has
    one: `refused`)."""

    def __init__(self, message: str, code: str = "", params: Mapping[str, Any] | None = None
                 ) -> None:
        super().__init__(message)
        self.code, self.params = code, dict(params or {})

    @classmethod
    def refused(cls, code: str, **params: Any) -> SourceError:
        """The error of a code in WORDS, its English as the message."""
        return cls(word(code, params), code, params)


StatusCallback = Callable[[SourceStatus], None]


class FrameSource:
    """The common face of every source: `frames()`, `status()`, `close()`, usable in a `with`."""

    place: Mapping[str, Any] = coded("place.source")
    """Where the pictures come from, as a code of WORDS (`place.video`, `place.camera_at`...)."""

    def __init__(self, on_status: StatusCallback | None = None) -> None:
        self._status = self._worded(SourceState.CONNECTING, "source.opening", source=self.place)
        self._on_status = on_status

    @property
    def description(self) -> str:
        """Where the pictures come from, in English (for the log)."""
        return word(self.place["code"], self.place["params"], "en")

    def frames(self) -> Iterator[Frame]:
        """The frames, in order, until the source ends or is closed."""
        raise NotImplementedError

    def status(self) -> SourceStatus:
        """Where the source stands now."""
        return self._status

    def _worded(self, state: SourceState, code: str, **params: Any) -> SourceStatus:
        return SourceStatus(state, word(code, params, "en"), code, params)

    def _set_status(self, state: SourceState, code: str, **params: Any) -> None:
        """Change the status to a code (of any table registered) with its parameters, telling the listener
        only when it changed."""
        new = self._worded(state, code, **params)
        if new == self._status:
            return
        self._status = new
        log.info("%s: %s (%s)", self.description, new.message, state.value)
        if self._on_status is not None:
            self._on_status(new)

    def _failed(self, error: SourceError) -> None:
        """The status of an error that ends the source (its code, or its words as they are)."""
        if error.code:
            self._set_status(SourceState.FAILED, error.code, **error.params)
        else:
            self._set_status(SourceState.FAILED, "source.failed", text=str(error))

    def close(self) -> None:
        """Stop reading; a closed source yields no more frames."""
        if self._status.state not in (SourceState.ENDED, SourceState.FAILED):
            self._set_status(SourceState.ENDED, "source.closed", source=self.place)

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
