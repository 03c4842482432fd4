"""The lessons of docs/teaching.md against their tesh files (check_examples.py).

A lesson's blocks show commands and their output as a reader types and sees
them; its tesh file (tests/cli/teaching_NAME.tesh) runs the same commands
and expects the same output. Both are read into a list of steps, (command,
output lines), and the blocks of one tesh file, taken in order, must be all
of its steps.
"""
import glob
import os

def tesh_steps(path):
    """The (command, output lines) of a tesh file made of '$' and '>' lines only."""
    steps, problems = [], []
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("$ "):
            command = line[2:]
            if command.startswith("${bindir}/"):
                command = command[len("${bindir}/"):]
            steps.append((command, []))
        elif line == ">" or line.startswith("> "):
            if not steps:
                problems.append(f"{path}:{number}: output before any command")
                continue
            steps[-1][1].append(line[2:])
        else:
            problems.append(f"{path}:{number}: a lesson's tesh file holds only '$' commands, their '>' output "
                            f"and comments, got '{line}'")
    return steps, problems


def block_steps(text, where):
    """The (command, output lines) of a block: '$ ' starts a command, a
    trailing '\\' continues it on the next line, other lines are output."""
    steps, problems = [], []
    continuing = False
    for line in text.rstrip("\n").split("\n"):
        if continuing:
            command, output = steps[-1]
            steps[-1] = (command + " " + line.strip().rstrip("\\").strip(), output)
            continuing = line.rstrip().endswith("\\")
        elif line.startswith("$ "):
            steps.append((line[2:].rstrip().rstrip("\\").rstrip(), []))
            continuing = line.rstrip().endswith("\\")
        elif steps:
            steps[-1][1].append(line)
        else:
            problems.append(f"{where}: a lesson block begins with '$ COMMAND', got '{line}'")
    return steps, problems


def first_difference(shown, tested):
    """(index of the step, words) where two step lists part, or None when they are the same."""
    for k, (a, b) in enumerate(zip(shown, tested)):
        if a[0] != b[0]:
            return k, f"command {k + 1} is\n    {a[0]}\n  in the doc but\n    {b[0]}\n  in the test"
        for j, (x, y) in enumerate(zip(a[1], b[1])):
            if x != y:
                return k, (f"command {k + 1} ({a[0][:60]}...), output line {j + 1} is\n    {x}\n  in the doc but\n"
                           f"    {y}\n  in the test")
        if len(a[1]) != len(b[1]):
            return k, f"command {k + 1} ({a[0][:60]}...) shows {len(a[1])} output lines in the doc, {len(b[1])} in the test"
    if len(shown) != len(tested):
        return min(len(shown), len(tested)), f"the doc shows {len(shown)} commands, the test runs {len(tested)}"
    return None


def check(lesson_blocks, src):
    """lesson_blocks: (where, tesh file relative to src, block text) in document
    order. Returns (number of tesh files checked, problems)."""
    shown, problems = {}, []
    for where, tesh, text in lesson_blocks:
        if not tesh:
            problems.append(f"{where}: a lesson marker names its tesh file: '<!-- example: lesson tests/cli/teaching_NAME.tesh -->'")
            continue
        steps, errors = block_steps(text, where)
        problems += errors
        blocks = shown.setdefault(tesh, ([], [], where))
        blocks[0].extend(steps)
        blocks[1].extend([where] * len(steps))
    for tesh, (steps, wheres, first) in sorted(shown.items()):
        path = os.path.join(src, tesh)
        if not os.path.isfile(path):
            problems.append(f"{first}: the lesson's tesh file {tesh} does not exist")
            continue
        tested, errors = tesh_steps(path)
        problems += errors
        difference = first_difference(steps, tested)
        if difference:
            k, words = difference
            where = wheres[min(k, len(wheres) - 1)] if wheres else first
            problems.append(f"{where}: the lesson's blocks differ from {tesh}: {words}")
    for path in sorted(glob.glob(os.path.join(src, "tests/cli/teaching_*.tesh"))):
        if os.path.relpath(path, src) not in shown:
            problems.append(f"{os.path.relpath(path, src)}: no lesson of the manual shows it "
                            f"('<!-- example: lesson {os.path.relpath(path, src)} -->')")
    return len(shown), problems
