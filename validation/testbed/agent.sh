#!/usr/bin/env bash
# Open MPI launch agent (plm_rsh_agent) replacing ssh: called as
#   agent.sh HOST WORDS...
# it runs the re-joined words in a shell inside node HOST's network namespace,
# under a UTS namespace whose hostname is HOST. Open MPI's shared-memory
# transport names its segment files after the hostname: without a hostname
# per node, ranks of different emulated nodes with the same local rank collide.
set -euo pipefail
host=$1
shift
case "$host" in
  *[!A-Za-z0-9-]*) echo "testbed agent: refusing host name '$host'" >&2; exit 1 ;;
esac
ip netns list | grep -qw "$host" || { echo "testbed agent: no node namespace '$host'" >&2; exit 1; }
exec ip netns exec "$host" unshare --uts /bin/sh -c "hostname '$host' && exec /bin/sh -c \"\$0\"" "$*"
