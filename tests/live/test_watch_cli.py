"""`saltacavallo watch` as a user runs it: arguments, a killed run resumed, a phone's MJPEG stream."""

from __future__ import annotations

import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest

from referee.store import GameStore
from vision.frames import open_source

ROOT = Path(__file__).resolve().parents[2]
FILMS = ROOT / "sample_images" / "sequences"
HAND = FILMS / "hand.mp4"
PLAYERS = "Anna,Bruno,Carla,Dario,Elena"


def watch(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webui.cli", "watch", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("args", "says"),
    [(["--players", "Anna,Bruno"], "a table has 3 to 20 players, not 2"),
     (["--players", PLAYERS, "--dealer", "Zeno"], "--dealer Zeno is not one of the players"),
     (["--players", "Anna,,Bruno"], "a name is empty"),
     ([], "--players is needed for a new game"),
     (["--players", PLAYERS, "--rules", "roma"], "unknown rules preset 'roma'"),
     (["--players", PLAYERS, "--fps", "0"], "--fps must be above 0")],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], says: str) -> None:
    done = watch(str(HAND), *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and says in done.stderr


def test_a_seats_file_that_does_not_parse_or_names_others_exits_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    strangers = tmp_path / "strangers.json"
    strangers.write_text(json.dumps({"Anna": [1, 2], "Bruno": [3, 4], "Carla": [5, 6],
                                     "Dario": [7, 8], "Zeno": [9, 10]}))
    for file, says in ((broken, "not a seats file in JSON"), (strangers, "names Zeno, not playing")):
        done = watch(str(HAND), "--players", PLAYERS, "--seats", str(file))
        assert done.returncode == 2 and says in done.stderr and done.stderr.count("\n") == 1


def test_a_source_that_is_not_there_exits_2(tmp_path: Path) -> None:
    done = watch(str(tmp_path / "nothing.mp4"), "--players", PLAYERS)
    assert done.returncode == 2 and done.stderr.startswith("saltacavallo watch: ")


def frames_from(video: Path, first: int, folder: Path) -> None:
    """The film's frames from `first` on, as a folder of images (the camera goes on)."""
    folder.mkdir()
    with open_source(str(video)) as source:
        for frame in source.frames():
            if frame.index >= first:
                cv2.imwrite(str(folder / f"frame-{frame.index:04d}.png"), frame.pixels)


def test_a_watch_killed_mid_hand_resumes_on_its_game_file_with_the_lives_intact(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    run = subprocess.Popen([sys.executable, "-m", "webui.cli", "watch", str(HAND), "--players",
                            PLAYERS, "--dealer", "Elena", "--db", str(db), "--json"], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert run.stdout is not None
    watchdog = threading.Timer(240, run.kill)  # a loop that never says it fails the test, not CI
    watchdog.start()
    seen = []
    for line in run.stdout:
        seen.append(json.loads(line))
        if seen[-1]["event"] == "swap":
            os.kill(run.pid, signal.SIGKILL)  # the laptop's lid closed mid-hand
            break
    run.wait(30)
    watchdog.cancel()
    assert seen and seen[-1] == {"event": "swap", "hand": 1, "from": "Carla", "to": "Elena",
                                 "legal": True, "at": seen[-1]["at"]}, "the watch never told the swap"
    killed_at = seen[-1]["at"]
    with GameStore.open(db, readonly=True) as store:
        assert store.game.hand is not None and store.game.hand.number == 1
        assert store.game.phase.value == "reveal"  # Anna kept, Carla swapped: all turn up next
    later = tmp_path / "later"
    frames_from(HAND, round(killed_at * 15) + 1, later)
    done = watch(str(later), "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    after = events(done.stdout)
    assert [e["event"] for e in after] == ["reveal", "draw", "settle"]
    assert after[-1]["losers"] == ["Carla"] and after[-1]["pot"] == 1
    with GameStore.open(db, readonly=True) as store:
        game = store.game
        assert game.lives == {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3, "Elena": 3}
        assert [type(e).__name__ for e in game.history].count("Deal") == 1
    assert Path(after[-1]["evidence"]).is_file()


class Stream:
    """A phone's IP-camera app: the film as MJPEG over HTTP at 15 frames a second, that drops once."""

    def __init__(self, video: Path, drop_at: int) -> None:
        with open_source(str(video)) as source:
            self.jpegs = [cv2.imencode(".jpg", f.pixels, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
                          for f in source.frames()]
        self.drop_at, self.dropped, self.next = drop_at, False, 0
        self.start = time.monotonic()
        stream = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                for index, data in stream.parts():
                    if index == stream.drop_at and not stream.dropped:
                        stream.dropped = True
                        return  # the phone's Wi-Fi drops
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n"
                                     + f"Content-Length: {len(data)}\r\n\r\n".encode() + data + b"\r\n")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/video"

    def parts(self) -> Iterator[tuple[int, bytes]]:
        """The frames in time: the camera runs on whether anyone reads it or not."""
        while True:
            index = int((time.monotonic() - self.start) * 15)
            if index >= len(self.jpegs):
                return
            if index >= self.next:
                self.next = index + 1
                yield index, self.jpegs[index]
            time.sleep(0.01)


def test_a_phone_stream_dropped_mid_hand_and_resumed_is_narrated_whole() -> None:
    truth = json.loads((FILMS / "hand.json").read_text())
    stream = Stream(HAND, drop_at=120)
    try:
        run = subprocess.Popen([sys.executable, "-m", "webui.cli", "watch", stream.url,
                                "--players", PLAYERS, "--dealer", "Elena", "--json"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONFAULTHANDLER": "1"})
        said = []
        assert run.stdout is not None
        watchdog = threading.Timer(240, run.kill)
        watchdog.start()
        for line in run.stdout:
            said.append(json.loads(line))
            if said[-1]["event"] == "settle":
                break
        watchdog.cancel()
        run.send_signal(signal.SIGINT)
        try:
            _, err = run.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # say where it is stuck: faulthandler prints every thread
            run.send_signal(signal.SIGABRT)
            _, err = run.communicate(timeout=30)
            pytest.fail(f"watch did not stop on Ctrl+C within 30 s; where its threads were:\n{err[-6000:]}")
    finally:
        stream.server.shutdown()
    assert stream.dropped
    # a machine busy with other work may read fewer pictures a second than the loop needs after
    # the reveal: that is said (a warning), and changes nothing of the narration here
    told = [{k: v for k, v in e.items() if k not in ("at", "evidence", "custody")} for e in said
            if e["event"] not in ("target", "keep") and e.get("code") != "pictures.slow"]
    assert told == [{k: v for k, v in e.items() if k != "evidence"} for e in truth["narration"]]
    assert "collegamento perso con la fotocamera a 127.0.0.1:" in err  # the drop, said in Italian
    assert "riprovo" in err


def _ignoring_ctrl_c() -> None:
    """In the child before it starts: SIGINT ignored, as a shell starts a program in the background."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_or_sigterm_stops_a_watch_started_in_the_background_and_the_game_is_saved(
    tmp_path: Path, sig: signal.Signals, status: int
) -> None:
    stream = Stream(HAND, drop_at=-1)  # never drops; once the film ends watch waits for more
    try:
        run = subprocess.Popen([sys.executable, "-m", "webui.cli", "watch", stream.url, "--players", PLAYERS,
                                "--dealer", "Elena", "--db", str(tmp_path / "family.db"), "--json"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_ignoring_ctrl_c)
        assert run.stdout is not None
        watchdog = threading.Timer(240, run.kill)
        watchdog.start()
        first = json.loads(run.stdout.readline())  # the deal: the hand is under way
        watchdog.cancel()
        run.send_signal(sig)
        _, err = run.communicate(timeout=30)
    finally:
        stream.server.shutdown()
    assert first["event"] == "deal"
    assert run.returncode == status and "saltacavallo watch: stopped; the game is saved" in err
    with GameStore.open(tmp_path / "family.db", readonly=True) as store:
        assert [type(e).__name__ for e in store.game.history].count("Deal") == 1
