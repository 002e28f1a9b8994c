"""Okey (Turkish rummy): tiles, the meld solver and rack arranging, the round engine and scoring."""
