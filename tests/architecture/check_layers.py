#!/usr/bin/env python3
"""The layers of docs/architecture.md, checked on every #include of the tree.

Each folder may include only from the folders its layer allows (includes
are written from the repository root, so the first path components name the
folder). Tests (*/test/, tests/) and the contend executable (sim/cli) sit on
top and may include anything. contend_core includes neither SimGrid nor MPI,
so MPI programs can link it.

usage: check_layers.py REPOSITORY_ROOT
"""
import pathlib
import re
import sys

CORE = ["sim/core/"]
ENGINE = CORE + ["sim/engine/"]
COLLECTIVES = ENGINE + ["sim/collectives/"]
WORKLOAD = COLLECTIVES + ["sim/workload/"]

# (folder prefix, include prefixes it may use), most specific first.
RULES = [
    ("sim/core/", CORE),
    ("sim/engine/", ENGINE),
    ("sim/collectives/", COLLECTIVES),
    ("sim/workload/", WORKLOAD),
    ("sim/search/", ENGINE + ["sim/search/", "models/staircase/"]),
    ("models/dedicated_core/", CORE + ["models/dedicated_core/"]),
    ("models/registry.", ENGINE + ["models/"]),
    ("models/", ENGINE + ["{own}"]),
    ("traces/formats/", CORE + ["traces/formats/"]),
    ("traces/convert/", CORE + ["traces/formats/", "traces/convert/"]),
    ("traces/replay/", WORKLOAD + ["traces/formats/", "traces/replay/"]),
    ("traces/generate/", CORE + ["traces/generate/"]),
    ("traces/tracer/", ["traces/tracer/"]),
    ("traces/examples/", ["traces/examples/"]),
    ("calibrate/common/", CORE + ["calibrate/common/"]),
    ("calibrate/", CORE + ["calibrate/common/", "{method}"]),  # bench/ and fit/ of one method
    ("validation/testbed/runner/", CORE + ["calibrate/common/", "validation/testbed/runner/"]),
    ("sim/sweep_mpi/", CORE + ["calibrate/common/", "sim/sweep_mpi/"]),
    ("bench/", []),
]
# fit/ also reads its model's parameters (one layer up from the engine's
# point of view, but the fit is linked only by the CLI and the tests).
FIT_EXTRA = ["models/"]
EXEMPT = ("sim/cli/", "tests/")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SYSTEM = re.compile(r'^\s*#\s*include\s*<(simgrid/[^>]+|mpi\.h|smpi/[^>]+)>', re.M)


def allowed_prefixes(path: str):
    parts = path.split("/")
    for prefix, allowed in RULES:
        if path.startswith(prefix):
            out = []
            for a in allowed:
                if a == "{own}":
                    out.append("/".join(parts[:2]) + "/")
                elif a == "{method}":
                    out.append("/".join(parts[:2]) + "/")
                else:
                    out.append(a)
            if path.startswith("calibrate/") and "/fit/" in path:
                out += FIT_EXTRA
            return out
    return None


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    problems = []
    for file in sorted(root.rglob("*")):
        if file.suffix not in (".cpp", ".hpp", ".h", ".c") or not file.is_file():
            continue
        rel = file.relative_to(root).as_posix()
        if rel.startswith("build") or "/test/" in rel or rel.startswith(EXEMPT):
            continue
        text = file.read_text(errors="replace")
        if rel.startswith("sim/core/"):
            for m in SYSTEM.finditer(text):
                problems.append(f"{rel}: includes <{m.group(1)}>: contend_core links neither SimGrid nor MPI")
        allowed = allowed_prefixes(rel)
        if allowed is None:
            continue
        for m in INCLUDE.finditer(text):
            target = m.group(1)
            if not (root / target).exists():
                problems.append(f"{rel}: includes \"{target}\", which is not a path from the repository root")
            elif not any(target.startswith(a) for a in allowed):
                problems.append(f"{rel}: includes \"{target}\"; this layer may include only {', '.join(allowed) or 'system headers'}")
    for p in problems:
        print(p)
    print(f"{len(problems)} layering problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
