"""The suite's pytest plugin: the fixtures every test directory may ask for by name, registered once in
tests/conftest.py (``pytest_plugins``), so no test file imports a harness by path to get a fixture."""
