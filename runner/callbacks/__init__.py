"""Turning results into what people and CI read: terminal output, JSON and JUnit reports."""
