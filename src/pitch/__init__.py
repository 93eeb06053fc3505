"""pitch: the card game Pitch (Auction Pitch, Setback), exactly by its rules."""

__version__ = "0.1.0"
