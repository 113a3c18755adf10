"""The game file itself: what makes it one, how it is checked before anything writes to it."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import tempfile
from contextlib import suppress
from pathlib import Path
from urllib.parse import quote

APPLICATION_ID = 0x53435631
"""SQLite's application_id of a Saltacavallo game ("SCV1" in ASCII)."""
VERSION = 3
"""The store version this code writes: 1 added each event's evidence and the warnings, 2 each
warning's code and parameters (worded in the reader's language), 3 the evening: every game of it
with its stake, each event tied to its game."""
_HEADER = b"SQLite format 3\x00"
_HEADER_BYTES = 100
_TABLES: dict[str, frozenset[str]] = {
    "table_setup": frozenset({"id", "players", "rules", "lives", "created"}),
    "events": frozenset({"seq", "kind", "data", "at"}),
}
"""The tables and columns every version has (version 0 is the file of the first release)."""
_ADDED: dict[int, dict[str, frozenset[str]]] = {
    1: {"events": frozenset({"evidence"}),
        "warnings": frozenset({"id", "message", "hand", "how"})},
    2: {"warnings": frozenset({"code", "params"})},
    3: {"events": frozenset({"game"}),
        "games": frozenset({"number", "players", "rules", "lives", "stake", "created"})},
}
"""What each version added."""


class StoreError(RuntimeError):
    """A file that holds no game, or a game that cannot be created, read or changed there."""


_REASONS = {
    errno.ENOENT: "no such file or folder",
    errno.ELOOP: "a symlink loop (the link points back at itself)",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "a folder, not a file",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ENOSPC: "the disk is full",
    errno.EFBIG: "the file has reached the largest size allowed",
    errno.EROFS: "the disk is read-only",
    errno.ENAMETOOLONG: "the name is too long",
}


def os_reason(err: OSError) -> str:
    """An operating-system error in words, without Python's [Errno n] decoration."""
    return _REASONS.get(err.errno or 0, err.strerror or str(err))


def sqlite_reason(err: sqlite3.Error) -> str:
    """A SQLite error in words a person can act on."""
    text = str(err)
    if "disk is full" in text or "disk I/O error" in text:
        return f"the disk is full or failing ({text})"
    if "locked" in text or "busy" in text:
        return f"another program kept it busy for too long ({text})"
    if "readonly" in text or "read-only" in text:
        return f"the file or its folder is read-only ({text})"
    if "malformed" in text or "not a database" in text:
        return f"the file is damaged ({text})"
    if "unable to open" in text:
        return f"it cannot be opened here: its folder may be read-only ({text})"
    return text


def read_uri(path: Path, mode: str, immutable: bool = False) -> str:
    """The SQLite URI that opens `path` in `mode` (`ro` or `rw`, never creating a file)."""
    extra = "&immutable=1" if immutable else ""
    return f"file:{quote(str(Path(path).absolute()))}?mode={mode}{extra}"


def connect_readonly(path: Path, immutable: bool = False) -> sqlite3.Connection:
    """A connection that never writes; a game nobody is writing opens even in a read-only folder."""
    try:
        db = sqlite3.connect(read_uri(path, "ro", immutable), uri=True, isolation_level=None,
                             check_same_thread=False, timeout=10.0)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.DatabaseError as err:
        if not isinstance(err, sqlite3.OperationalError):  # opened, but what it read is wrong
            raise StoreError(f"{path} is damaged or not a Saltacavallo game "
                             f"({sqlite_reason(err)})") from None
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(f"cannot read {path}: it is being written, and its companion "
                             f"files ({wal.name}, -shm) cannot be shared from here") from None
    try:  # no write-ahead log: the file alone holds the whole game
        db = sqlite3.connect(read_uri(path, "ro", immutable=True), uri=True,
                             isolation_level=None, check_same_thread=False)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as err:
        raise StoreError(f"cannot read {path}: {sqlite_reason(err)}") from None
    return db


def _read_header(path: Path) -> bytes:
    """The first 100 bytes of a regular, non-empty file; anything else is a StoreError."""
    try:
        found = os.stat(path)
    except OSError as err:
        if err.errno == errno.ENOENT:
            raise StoreError(f"{path} does not exist") from None
        raise StoreError(f"cannot open {path}: {os_reason(err)}") from None
    if stat.S_ISDIR(found.st_mode):
        raise StoreError(f"{path} is a folder, not a game file")
    if not stat.S_ISREG(found.st_mode):
        raise StoreError(f"{path} is not a regular file (a device or a pipe?)")
    if found.st_size == 0:
        raise StoreError(f"{path} is empty (0 bytes): it holds no Saltacavallo game")
    try:
        with open(path, "rb") as file:
            header = file.read(_HEADER_BYTES)
    except OSError as err:
        raise StoreError(f"cannot read {path}: {os_reason(err)}") from None
    if not header.startswith(_HEADER):
        raise StoreError(f"{path} holds no Saltacavallo game (it is not a SQLite database)")
    if len(header) < _HEADER_BYTES:
        raise StoreError(f"{path} is truncated: only {len(header)} bytes are left of it")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    counted = header[24:28] == header[92:96]  # the page count is valid only when these agree
    if counted and found.st_size < page_size * pages:
        raise StoreError(f"{path} is truncated: it should hold {page_size * pages} bytes but "
                         f"holds {found.st_size}")
    return header


def check_game_file(path: Path) -> int:
    """The store version of a Saltacavallo game file, checked without changing it.

    Anything else (missing, a folder, empty, foreign, damaged, truncated, newer) is a
    StoreError saying which.
    """
    header = _read_header(path)
    application = int.from_bytes(header[68:72], "big")
    if application not in (0, APPLICATION_ID):
        raise StoreError(f"{path} holds no Saltacavallo game: it belongs to another program "
                         f"(SQLite application id {application:#010x})")
    # with no write-ahead log the file holds everything: read it as is, creating no -wal, -shm
    quiet = not os.path.exists(f"{path}-wal")
    db = connect_readonly(path, immutable=quiet)
    try:
        checked = db.execute("PRAGMA quick_check").fetchall()
        if checked != [("ok",)]:
            raise StoreError(f"{path} is damaged: SQLite's check says {checked[0][0]}")
        application = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            name: frozenset(row[1] for row in db.execute(f'PRAGMA table_info("{name}")'))
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{path} is damaged: {sqlite_reason(err)}") from None
    finally:
        db.close()
    ours = application == APPLICATION_ID
    if ours and version > VERSION:
        raise StoreError(f"{path} was written by a newer Saltacavallo (store version {version}; "
                         f"this one reads versions 0 to {VERSION}): upgrade to open it")
    if not ours and version != 0:
        raise StoreError(f"{path} holds no Saltacavallo game: it belongs to another program "
                         f"(SQLite user version {version})")
    needed = dict(_TABLES)
    for since, added in _ADDED.items():
        if ours and version >= since:
            needed.update({t: needed.get(t, frozenset()) | c for t, c in added.items()})
    missing = [t for t, columns in needed.items() if not columns <= tables.get(t, frozenset())]
    if missing and not ours:
        listed = ", ".join(sorted(n for n in tables if not n.startswith("sqlite_"))) or "none"
        raise StoreError(f"{path} holds no Saltacavallo game (its tables: {listed})")
    if missing:
        raise StoreError(f"{path} is damaged: its {', '.join(missing)} table is missing or "
                         "lacks columns")
    return version if ours else 0


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` whole: a temporary file beside it, fsync, rename, fsync folder."""
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                             dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)

