#!/usr/bin/env bash
# Tears the emulated cluster down: deletes exactly what up.sh recorded in
# CTD_STATE/created (namespaces, links), in reverse order, restores the
# sysctls it changed, and ends leftover processes inside our namespaces.
# Nothing else is touched. Safe to run when nothing is up.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
ctd_require_root

created="$CTD_STATE/created"
if [ ! -f "$created" ]; then
  ctd_log "nothing to tear down (no $created)"
  exit 0
fi

status=0
while read -r kind name value; do
  case "$kind" in
    netns)
      # Processes still inside the namespace (a crashed run's daemons) would keep it alive.
      for pid in $(ip netns pids "$name" 2>/dev/null); do kill -TERM "$pid" 2>/dev/null; done
      sleep 0.2
      for pid in $(ip netns pids "$name" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
      ip netns delete "$name" 2>/dev/null || { ctd_log "could not delete namespace $name"; status=1; }
      ;;
    link)
      if ip link show "$name" >/dev/null 2>&1; then
        ip link delete "$name" || { ctd_log "could not delete link $name"; status=1; }
      fi
      ;;
    sysctl)
      sysctl -q -w "$name=$value" || { ctd_log "could not restore $name"; status=1; }
      ;;
    *) ctd_log "unknown record '$kind $name' in $created (ignored)" ;;
  esac
done < <(tac "$created")
rm -f "$created" "$CTD_STATE/config" "$CTD_STATE/hostfile"
rmdir "$CTD_STATE" 2>/dev/null || true
ctd_log "down"
exit $status
