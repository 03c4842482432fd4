#!/usr/bin/env python3
"""The lesson check of docs.examples (lessons.py) on hand-made cases: a
lesson that matches its tesh file passes, and every kind of drift is
reported at the block where it is.

Usage: test_lessons.py
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lessons  # noqa: E402

TESH = """# a lesson
$ ${bindir}/contend simulate --platform p.yaml --pattern a.pattern --quiet
> line 1
> line 2

$ ${bindir}/contend explain --platform p.yaml --pattern a.pattern
> story
"""
FIRST = """$ contend simulate --platform p.yaml \\
    --pattern a.pattern --quiet
line 1
line 2
"""
SECOND = """$ contend explain --platform p.yaml --pattern a.pattern
story
"""
NAME = "tests/cli/teaching_case.tesh"


def problems(src, blocks):
    return lessons.check([(f"doc.md:{k}", NAME, text) for k, text in blocks], src)[1]


def expect(condition, what):
    if not condition:
        print(f"FAILED: {what}")
        return 1
    print(f"ok: {what}")
    return 0


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as src:
        os.makedirs(os.path.join(src, "tests/cli"))
        with open(os.path.join(src, NAME), "w", encoding="utf-8") as f:
            f.write(TESH)
        failures += expect(problems(src, [(1, FIRST), (9, SECOND)]) == [],
                           "two blocks, one continued command, equal to the tesh file")
        found = problems(src, [(1, FIRST), (9, SECOND.replace("story", "other story"))])
        failures += expect(len(found) == 1 and found[0].startswith("doc.md:9:") and "output line 1" in found[0],
                           "a changed output line is reported at its block")
        found = problems(src, [(1, FIRST.replace("--quiet", "--json -"))])
        failures += expect(len(found) == 1 and found[0].startswith("doc.md:1:") and "command 1" in found[0],
                           "a changed command is reported")
        found = problems(src, [(1, FIRST)])
        failures += expect(len(found) == 1 and "shows 1 commands, the test runs 2" in found[0],
                           "a command of the test missing from the doc is reported")
        found = problems(src, [(1, FIRST + "line 3\n"), (9, SECOND)])
        failures += expect(len(found) == 1 and "3 output lines in the doc, 2 in the test" in found[0],
                           "an extra output line is reported")
        found = lessons.check([], src)[1]
        failures += expect(len(found) == 1 and "no lesson of the manual shows it" in found[0],
                           "a teaching tesh file no lesson shows is reported")
        with open(os.path.join(src, NAME), "a", encoding="utf-8") as f:
            f.write("! expect return 1\n")
        found = problems(src, [(1, FIRST), (9, SECOND)])
        failures += expect(any("holds only '$' commands" in p for p in found),
                           "a tesh directive other than commands and outputs is refused")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
