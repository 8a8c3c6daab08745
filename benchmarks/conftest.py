"""Benchmarks (see coinrow bench)."""
