"""Cargo-Bench: perturbation suite, runner and discrimination index (no I/O frameworks)."""
