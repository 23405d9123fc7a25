"""Benchmarks: instance suites, a parallel runner (processes or a Dask cluster) and reports."""
