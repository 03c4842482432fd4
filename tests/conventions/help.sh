#!/usr/bin/env bash
# Every subcommand of contend answers --help without error, and its help ends
# with "Example:" and command lines (docs/commands.md, "Conventions"). The
# subcommands are the ones `contend --help` lists, so a new command is
# covered at once. Every example line is then run, from a folder that sees
# the repository's platforms/, traces/ and tests/, and must succeed.
# usage: help.sh CONTEND SRCDIR WORKDIR OTF2_SAMPLE
# (OTF2_SAMPLE writes the OTF2 archive the convert-trace example reads.)
set -euo pipefail
contend=$(realpath "$1") src=$(realpath "$2") work=$3 otf2_sample=$(realpath "$4")
fail() { echo "help.sh: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/run"
for folder in platforms traces tests; do ln -s "$src/$folder" "$work/run/$folder"; done
"$otf2_sample" "$work/run/scorep-run" > /dev/null

mapfile -t commands < <("$contend" --help | awk '/^Subcommands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}')
[ ${#commands[@]} -ge 10 ] || fail "'contend --help' lists ${#commands[@]} subcommands"

examples=0
for command in "" "${commands[@]}"; do
  name=${command:-(none)}
  help=$work/help-${command:-contend}.txt
  "$contend" $command --help > "$help" 2>&1 || fail "'contend $command --help' exits $?"
  # The help's last lines: "Example:", then the command lines, nothing after.
  mapfile -t tail < <(awk 'NF {last = NR} {line[NR] = $0} END {
      for (i = last; i > 0 && line[i] ~ /^  contend /; i--) ;
      for (j = i; j <= last; j++) print line[j] }' "$help")
  [ "${tail[0]:-}" = "Example:" ] && [ ${#tail[@]} -ge 2 ] ||
    fail "'contend $command --help' does not end with 'Example:' and command lines"
  read -ra words <<< "${tail[-1]}"
  [ -z "$command" ] || [ "${words[1]}" = "$command" ] ||
    fail "the example of 'contend $command' ends with 'contend ${words[1]}'"
  for line in "${tail[@]:1}"; do
    read -ra words <<< "$line"
    words[0]=$contend
    (cd "$work/run" && "${words[@]}") > "$work/example-$examples.out" 2>&1 ||
      fail "the example of 'contend $name' failed: $line (see $work/example-$examples.out)"
    examples=$((examples + 1))
  done
done
echo "help.sh: ${#commands[@]} subcommands, every --help ends with an example; $examples example lines ran"
