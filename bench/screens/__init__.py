"""Decision-level screens: a change of a level tried on the true deal, position by position."""
