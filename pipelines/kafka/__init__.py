"""Runnable jobs that wire the library to Kafka."""
