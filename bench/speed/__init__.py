"""Engine and bot speed: hands, decisions and environment steps per second."""
