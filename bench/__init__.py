"""The benchmarks and calibrations of baofen, run from the repository root as modules
(``PYTHONPATH=src python3 -m bench.speed.native_hands``); bench/README.md lists them."""
