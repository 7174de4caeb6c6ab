"""Puzzles (残局练习): how fast they are made, how well they survive another review, and how
fast the page answers."""
