"""Command-line entry points: thin shells over the library API."""
