"""What the corpus checkers (export_check.py, fixres_check.py) share: the
game records of pgncheck's JSON Lines output, and the count of checks that
ends in the "N passed, N failed" line the suites read."""
import json


def game_records(text):
    """The "game" records of JSON Lines output (bytes or str); a line that
    is no JSON is passed over."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    games = []
    for line in text.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("type") == "game":
            games.append(r)
    return games


class Tally:
    """ok(msg) and fail(msg, detail) count the checks; a failure prints
    "FAIL msg" and the first detail_lines lines of detail, indented, and a
    pass "ok msg" unless quiet_ok; finish() prints the counts and returns
    the exit status (1 if anything failed)."""

    def __init__(self, detail_lines, quiet_ok=False):
        self.passed = self.failed = 0
        self.detail_lines = detail_lines
        self.quiet_ok = quiet_ok

    def ok(self, msg):
        self.passed += 1
        if not self.quiet_ok:
            print("ok " + msg)

    def fail(self, msg, detail=""):
        self.failed += 1
        print("FAIL " + msg)
        for line in detail.splitlines()[:self.detail_lines]:
            print("    " + line)

    def finish(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0
