"""The strategies that choose the next click of the hidden game, one module each, and their
registry (`make_strategy(name, shape)`). Each is imported by name; the ones that compute with
numpy load it, so nothing is re-exported here."""

__all__: list[str] = []
