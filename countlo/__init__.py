"""countlo: companion for CountLightsOut and a complete classic Lights Out solver."""

__version__ = "0.1.0"
