"""The live pipeline: a camera source in, the referee's events and their evidence out; plain Python, no Flask."""
