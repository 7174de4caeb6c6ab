"""How far the 复盘 (review) can be trusted: stable verdicts, planted blunders found."""
