"""wizard-tui: the card game Wizard for friends on a LAN, played from the terminal."""

__version__ = "0.1.0"
