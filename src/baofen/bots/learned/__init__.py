"""The learned parts of the bots, run in plain Python from the package's weight files: the
learned bidder, the learned evaluator, and the file format they ship in."""
