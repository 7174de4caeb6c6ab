"""Calibrations: fit the bots' tables and write them as the package's data files."""
