"""Code the benchmarks share: the decision-level screen, the evaluator gate, the load clients
and the server process they start."""
