"""Puzzles (残局练习) on the server: what a solver is shown of a puzzle and how an answer is
judged (:mod:`.position`), and the starting set stored on first start (:mod:`.starting`)."""
