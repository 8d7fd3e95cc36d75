"""The Python front door: the questions and the vocabulary `import countlo` gives
(docs/library.md). `countlo/__init__.py` re-exports them lazily; import the modules by name."""

__all__ = ["answers", "games", "patterns"]
