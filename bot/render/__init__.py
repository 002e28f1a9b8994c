"""Rendering of game state for players: text in Turkish and English, and pictures drawn with Pillow.

Used by every adapter; rendering never sees more than the view it is given.
"""
