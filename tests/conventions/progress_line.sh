#!/usr/bin/env bash
# Runs `contend simulate` on traces/samples/halo-256.pattern on a
# pseudo-terminal (util-linux's script) and says whether the progress line
# (docs/commands.md) appeared there, in its form, ended before the summary.
# CONTEND_PROGRESS_AFTER=0 shows it from the start of this short run.
# usage: progress_line.sh CONTEND WORKDIR CASE (run from the repository root)
#   CASE terminal: stderr on the terminal; quiet: the same with --quiet;
#   redirected: stderr to a file (which gets no line either).
contend=$1 work=$2 case=$3
mkdir -p "$work"
run="CONTEND_PROGRESS_AFTER=0 '$contend' simulate --platform platforms/epyc-rome-2node.yaml"
run+=" --pattern traces/samples/halo-256.pattern --per-rank '$work/progress.csv'"
case $case in
  terminal) ;;
  quiet) run+=" --quiet" ;;
  redirected) run+=" --quiet 2> '$work/progress.err'" ;;
  *) echo "unknown case $case" >&2; exit 2 ;;
esac
script -q -e -c "$run" /dev/null > "$work/progress.tty" < /dev/null || { echo "contend failed"; exit 1; }
python3 - "$work/progress.tty" "$work/progress.err" "$case" << 'PY'
import re, sys
tty = open(sys.argv[1], "rb").read().decode()
err = open(sys.argv[2]).read() if sys.argv[3] == "redirected" else ""
line = re.compile(r"\rsimulated [0-9.e+-]+ s, [0-9]+ of [0-9]+ posted messages delivered, "
                  r"wall [0-9.]+ s, [0-9]+ messages/s\x1b\[K")
lines = line.findall(tty)
if not lines:
    print("no progress line" + ("" if "simulated" not in tty + err else " (but 'simulated' was printed)"))
    sys.exit(0)
rest = line.sub("", tty)
print("progress line shown" + (", ended before the summary" if rest.startswith("\r\ncontend: ") else
                               ", NOT ended before the summary: " + repr(rest[:80])))
PY
