"""Poker: cards, hand ranking, betting and side pots, and the Türk pokeri and Açık poker engines."""
