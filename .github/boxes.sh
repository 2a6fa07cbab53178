#!/usr/bin/env bash
# CI only (GitHub's ubuntu-24.04 runners: an unprivileged user with passwordless sudo). What the
# snippet engine's page boxes need there (README, "What a page can and cannot do"):
#   setup      user namespaces allowed (Ubuntu 24.04's AppArmor forbids them to unprivileged
#              users by default), and a cgroup v2 folder with the memory and pids controllers
#              delegated to the user, named in SNIPPETS_CGROUP for the later steps
#   run CMD    CMD from inside that folder, so that the engine may move its pages below it
set -euo pipefail
CGROUP=/sys/fs/cgroup/jax-kb
case "${1:-}" in
  setup)
    if [ -e /proc/sys/kernel/apparmor_restrict_unprivileged_userns ]; then
      sudo sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0
    fi
    sudo mkdir -p "$CGROUP/engine"
    echo "+memory +pids" | sudo tee /sys/fs/cgroup/cgroup.subtree_control >/dev/null
    echo "+memory +pids" | sudo tee "$CGROUP/cgroup.subtree_control" >/dev/null
    sudo chown -R "$(id -u):$(id -g)" "$CGROUP"
    echo "SNIPPETS_CGROUP=/jax-kb" >> "$GITHUB_ENV"  # from the hierarchy's root
    ;;
  run)
    shift
    echo $$ | sudo tee "$CGROUP/engine/cgroup.procs" >/dev/null
    exec "$@"
    ;;
  *)
    echo "usage: .github/boxes.sh setup | run COMMAND..." >&2
    exit 2
    ;;
esac
