"""The web page and the command line: wires the referee and the vision pipeline together."""
