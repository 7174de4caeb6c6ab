"""Game-server load: actions per second, latency, CPU, memory and bytes per table."""
