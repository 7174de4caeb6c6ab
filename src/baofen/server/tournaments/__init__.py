"""Tournaments (比赛) on the server: the director that runs each event's rounds on time, and
the standings and travellers read from its tables' hands."""
