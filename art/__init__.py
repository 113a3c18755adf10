"""The project's own Neapolitan deck drawn by code, and table scenes composed from it."""
