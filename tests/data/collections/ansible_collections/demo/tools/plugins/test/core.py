class TestModule:
    def tests(self):
        return {"loud": lambda value: str(value).isupper()}
