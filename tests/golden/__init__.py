"""Golden playthroughs: whole hands written as text and replayed by both engines."""
