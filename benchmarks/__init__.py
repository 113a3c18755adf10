"""Evaluations and speed runs of the card reader and the referee, each run as `python -m benchmarks.<name>`.

Every run prints its figures as Markdown and appends them, with the machine and the commit, to
benchmarks/results/<name>.jsonl; `python -m benchmarks.report` writes docs/BENCHMARKS.md from there.
`python -m benchmarks.screenshots` photographs the pages for docs/screenshots.
"""
