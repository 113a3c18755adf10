"""Write docs/BENCHMARKS.md from the recorded runs in benchmarks/results: every figure the docs give.

    .venv/bin/python -m benchmarks.report [--check]

For each benchmark and each distinct setting of its arguments, the latest run is shown with the
command that repeats it, when and on which commit and machine it ran; the figures are rendered
by the benchmark's own `render`. Speed figures are shown with the machine's load at the time.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks.harness import RESULTS, ROOT, plain, read_results

BENCHMARKS = (
    "eval_valid", "eval_views", "eval_size", "eval_pairs", "eval_hand", "eval_soft", "eval_live", "eval_closer", "eval_steep",
    "bench_vision_speed", "bench_live",
    "bench_referee", "bench_sse", "bench_frames",
)
"""The benchmarks in the order the page gives them: accuracy on photos, on drawn scenes, then speed."""
OUT = ROOT / "docs" / "BENCHMARKS.md"
PLACE_BOUND = ("data", "photos", "save", "jobs")
"""Arguments naming places on the machine that ran (the shared data, a folder to save into) or how it
shared out the work (eval_live's --jobs): they tell runs of one setting apart on no other, and the page
must not change with where the checkout lies."""
SPEED = ("bench_vision_speed", "bench_live", "bench_referee", "bench_sse", "bench_frames")
"""Benchmarks whose figures are times: meaningful only on a machine doing nothing else."""


def _setting(run: dict[str, Any], defaults: dict[str, Any]) -> str:
    """The run's arguments that decide its figures, as one comparable text; `defaults` holds the arguments
    the benchmark takes today and their defaults (a run recorded with a removed one, such as --locator,
    shares its setting; one recorded before an argument was added, such as --work-side, took its default)."""
    setting = {key: run["args"].get(key, default) for key, default in defaults.items() if key not in PLACE_BOUND}
    return json.dumps(setting, sort_keys=True)


def _defaults(module: ModuleType) -> dict[str, Any]:
    """The benchmark's arguments and their defaults, as a run records them."""
    return {key: plain(value) for key, value in vars(module.command().parse_args([])).items()}


def _command(module: ModuleType, run: dict[str, Any]) -> str:
    """The command line that repeats a run: the arguments that differ from the defaults (an argument the
    benchmark no longer takes, such as the removed --locator, is left out)."""
    defaults = _defaults(module)
    words = [f"python -m benchmarks.{run['benchmark']}"]
    for key, value in run["args"].items():
        if key in PLACE_BOUND or key not in defaults or defaults[key] == value:
            continue
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):  # a switch: given when on (the defaults leave it off)
            words.append(flag)
        else:
            words.append(" ".join([flag, *map(str, value)]) if isinstance(value, list) else f"{flag} {value}")
    prefix = "taskset -c 0 " if run["benchmark"] in SPEED else ""
    return prefix + ".venv/bin/" + " ".join(words)


def _provenance(run: dict[str, Any]) -> str:
    """When, on which commit and on which machine a run took place."""
    box = run["machine"]
    commit = (run["commit"] or "unknown")[:10] + (" with local changes" if run["dirty"] else "")
    return (
        f"Run {run['at']} ({run['seconds']:.0f} s) at commit `{commit}`, on {box['cpu']}, {box['usable_cores']} of "
        f"{box['cores']} cores, load {box['load_1min']}; Python {box['python']}, numpy {box['numpy']}, "
        f"OpenCV {box['opencv']}, onnxruntime {box['onnxruntime']}."
    )


def _about(module: ModuleType) -> list[str]:
    """The benchmark's description: its docstring without the usage line."""
    paragraphs = [part.strip() for part in (module.__doc__ or "").split("\n\n")]
    return [" ".join(part.split()) for part in paragraphs if part and not part.startswith(".venv") and "python -m" not in part]


def page(runs: list[dict[str, Any]]) -> str:
    """The Markdown page of the latest run of each benchmark and setting."""
    lines = [
        "# Benchmarks",
        "",
        "Written by `.venv/bin/python -m benchmarks.report` from the runs recorded in `benchmarks/results/`",
        "(each benchmark appends one JSON line per run, with its machine and commit). Do not edit by hand:",
        "rerun the benchmark, then the report.",
    ]
    for name in BENCHMARKS:
        module = importlib.import_module(f"benchmarks.{name}")
        about = _about(module)
        lines += ["", f"## {name}: {about[0]}", ""]
        for paragraph in about[1:]:
            lines += [paragraph, ""]
        if name in SPEED:
            lines += ["Speed figures are comparable only between runs on an otherwise idle machine.", ""]
        latest: dict[str, dict[str, Any]] = {}
        defaults = _defaults(module)
        for run in runs:
            if run["benchmark"] == name:
                latest.pop(_setting(run, defaults), None)
                latest[_setting(run, defaults)] = run
        if not latest:
            lines += [f"No run recorded yet: `{_command(module, {'benchmark': name, 'args': {}})}`.", ""]
        for run in latest.values():
            lines += [f"`{_command(module, run)}`", "", _provenance(run), "", *module.render(run["figures"]), ""]
        lines.pop()
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the page, or with --check say whether the written page is up to date."""
    cli = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__.split("\n\n")[0])
    cli.add_argument("--results", type=Path, default=RESULTS, help="folder of the recorded runs")
    cli.add_argument("--out", type=Path, default=OUT, help="the page to write (default: docs/BENCHMARKS.md)")
    cli.add_argument("--check", action="store_true", help="write nothing; exit 1 when the page differs from the results")
    args = cli.parse_args(argv)
    text = page(read_results(args.results))
    if args.check:
        current = args.out.read_text() if args.out.is_file() else ""
        if current != text:
            print(f"{args.out} is not what the results in {args.results} give: run python -m benchmarks.report", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
