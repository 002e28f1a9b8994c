"""Tests of the traffic tools (virtual time, traffic counting, the loopback Discord REST) and of
the benchmarks that use them."""
