"""The live package stands without the web companion: imported and run where Flask cannot be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WITHOUT_THE_WEB = """
import json, sys
for name in ("flask", "werkzeug", "tornado", "webui"):
    sys.modules[name] = None  # any import of them fails
from referee.events import ChooseDealer
from referee.game import Game
from referee.wording import WORDS
from vision.frames import open_source
from vision.seats import UNSURE
from live.loop import TableWatcher

assert set(UNSURE) <= set(WORDS)  # the loop words the places' doubts itself, without the pages' tables

truth = json.loads(open(sys.argv[1], encoding="utf-8").read())
game = Game(truth["players"], truth["rules"])
game.play(ChooseDealer(truth["dealer"]))
watcher = TableWatcher(game)
with open_source(sys.argv[2]) as source:
    said = [line for frame in source.frames() for line in watcher.step(frame)] + watcher.finish()
print(json.dumps([line.to_json()["event"] for line in said]))
"""
UNTOLD = ("target", "keep")
"""Kinds the films' truth leaves out (tests/live/test_watch.py)."""


def test_a_watcher_runs_a_sample_film_where_flask_cannot_be_imported() -> None:
    films = ROOT / "sample_images" / "sequences"
    truth = json.loads((films / "hand.json").read_text(encoding="utf-8"))
    run = subprocess.run([sys.executable, "-c", WITHOUT_THE_WEB, str(films / "hand.json"),
                          str(films / truth["video"])], capture_output=True, text=True, timeout=300,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    told = [kind for kind in json.loads(run.stdout) if kind not in UNTOLD]
    assert told == [line["event"] for line in truth["narration"]]
