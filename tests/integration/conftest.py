"""Fixtures of real local services, shared from :mod:`tests.support`."""

from tests.support.kafka import broker

__all__ = ["broker"]
