"""The package version, in a module that imports nothing (cache keys read it without loading any algorithm)."""

__version__ = "0.3.0"
