"""Seeing the table: locate cards, warp them upright, classify them."""
