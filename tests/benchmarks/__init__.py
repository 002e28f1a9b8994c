"""Tests of the benchmarks' own tools (virtual time, traffic counting, the traffic benchmark)."""
