"""Servers the tests start on 127.0.0.1: stand-ins for remote APIs that follow their documented behaviour."""
