#!/usr/bin/env bash
# `make test-ltr`: the plugin's QGIS tests against QGIS 3.44 LTR — Debian 13 "trixie" with
# QGIS from trixie-backports (Qt 5.15, Python 3.13, numpy 2) — in a chroot built with
# debootstrap from Debian's own packages.
#
# Needs root (debootstrap, mount, chroot; CI runs as root). The root file system is cached
# outside the repository in $CITYPLANNER_LTR_CACHE (default ~/.cache/cityplanner) and rebuilt
# only when the package list below changes: a fresh machine builds it in ~3-9 minutes.
# `test.sh --rootfs-only` builds (or checks) the cached root file system and stops.
# Inside it the QGIS user's path is taken: Debian's QGIS and Python libraries, plus only what
# they lack (alns; pytest-qgis for the tests), fetched here on the host with `pip download`
# for the chroot's Python and installed in the chroot with --no-index --find-links by the plugin's own
# installer. Set $DEBIAN_MIRROR to use a mirror other than debootstrap's default.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
# CITYPLANNER_LTR_SUITE=forky: the same tests on Debian forky's QGIS 3.44.15 with Python 3.14 and
# numpy 2.4 (not part of CI; docs/compat.md says how it went)
APT_OPTS=""
case "${CITYPLANNER_LTR_SUITE:-trixie-backports}" in
  trixie-backports) SUITE=trixie BACKPORTS=trixie-backports ;;  # QGIS 3.44 LTR; trixie itself has 3.40
  # a testing suite's Release file is valid for a week only: a mirror that lags behind is refused
  forky) SUITE=forky BACKPORTS="" APT_OPTS="-o Acquire::Check-Valid-Until=false" ;;
  *) echo "test-ltr: CITYPLANNER_LTR_SUITE is trixie-backports (default) or forky" >&2; exit 2 ;;
esac
APT_PKGS="qgis python3-qgis qgis-providers python3-geopandas python3-scipy python3-networkx python3-pytest python3-pytestqt python3-pip xvfb xauth"
TEST_ONLY="pytest-qgis==2.1.0 pytest-timeout==2.4.0 psutil==7.2.2"  # the same pytest-qgis as on 3.22 (no fork of the test setup); tests set time limits and look for processes left behind
CACHE=${CITYPLANNER_LTR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cityplanner}
ROOTFS=$CACHE/${BACKPORTS:-$SUITE}-qgis
WHEELS=$CACHE/$SUITE-wheels
BUDGET=${CITYPLANNER_LTR_BUDGET:-900}  # seconds for the tests in the chroot
TESTS=(tests/core/test_deps.py tests/core/test_package.py tests/qgis/test_plugin_load.py
       tests/qgis/test_task_algorithms.py::test_registered_with_help
       tests/qgis/test_task_algorithms.py::test_round_trip
       tests/qgis/test_task_algorithms.py::test_qgis_process_list_and_station_chain
       tests/qgis/test_task_algorithms.py::test_qgis_process_help_of_every_algorithm
       tests/qgis/test_participation_alg.py tests/core/test_enum_check.py tests/qgis/test_enum_runtime.py
       tests/install/test_user_path.py)

main() {
  [ "$(id -u)" -eq 0 ] || { echo "test-ltr: needs root (debootstrap + chroot); CI runs as root" >&2; exit 2; }
  t0=$SECONDS
  stamp="$SUITE $BACKPORTS $APT_PKGS"
  mounted=()
  cleanup() { for ((i=${#mounted[@]}-1; i>=0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done; }
  trap cleanup EXIT
  bind() { mkdir -p "$2"; mount "${@:3}" "$1" "$2"; mounted+=("$2"); }
  in_root() { chroot "$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
              DEBIAN_FRONTEND=noninteractive bash -c "$2"; }

  if [ "$(cat "$ROOTFS/.cityplanner-rootfs" 2>/dev/null)" != "$stamp" ]; then
    echo "test-ltr: building the Debian $SUITE${BACKPORTS:+ + $BACKPORTS} root file system in $ROOTFS (debootstrap + apt, 3-9 min)"
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
    rm -rf "$ROOTFS.tmp" && mkdir -p "$CACHE"
    # a debootstrap older than the suite (Debian 12's knows no forky) gets a copy of its scripts
    # where the suite is bootstrapped like sid
    boot_dir=/usr/share/debootstrap
    if [ ! -e "$boot_dir/scripts/$SUITE" ]; then
      rm -rf "$CACHE/debootstrap" && cp -r "$boot_dir" "$CACHE/debootstrap"
      ln -s sid "$CACHE/debootstrap/scripts/$SUITE" && boot_dir=$CACHE/debootstrap
    fi
    DEBOOTSTRAP_DIR=$boot_dir debootstrap --variant=minbase "$SUITE" "$ROOTFS.tmp" ${DEBIAN_MIRROR:+"$DEBIAN_MIRROR"} \
      >"$CACHE/debootstrap.log" 2>&1 || { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
    bind proc "$ROOTFS.tmp/proc" -t proc
    bind /dev "$ROOTFS.tmp/dev" --rbind  # apt wants /dev/pts
    # the backports suite from the same mirror debootstrap used; -t takes QGIS (and what it needs
    # newer) from there, everything else from trixie
    if [ -n "$BACKPORTS" ]; then
      mirror=$(awk '/^deb /{print $2; exit}' "$ROOTFS.tmp/etc/apt/sources.list")
      echo "deb $mirror $BACKPORTS main" > "$ROOTFS.tmp/etc/apt/sources.list.d/backports.list"
    fi
    in_root "$ROOTFS.tmp" "apt-get update -qq $APT_OPTS && apt-get install -y -qq --no-install-recommends ${BACKPORTS:+-t $BACKPORTS} $APT_PKGS && apt-get clean" \
      >"$CACHE/apt.log" 2>&1 || { tail -20 "$CACHE/apt.log" >&2; exit 1; }
    cleanup; mounted=()
    echo "$stamp" > "$ROOTFS.tmp/.cityplanner-rootfs"
    rm -rf "$ROOTFS" && mv "$ROOTFS.tmp" "$ROOTFS"
  fi
  t_rootfs=$((SECONDS - t0))
  [ "${1:-}" = --rootfs-only ] && { echo "test-ltr: root fs ready in ${t_rootfs}s"; exit 0; }

  # the working tree as git sees it (tracked and new files, nothing ignored), fresh each run
  rm -rf "$ROOTFS/opt/cityplanner" && mkdir -p "$ROOTFS/opt/cityplanner"
  git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$ROOTFS/opt/cityplanner"
  bind proc "$ROOTFS/proc" -t proc
  bind /dev "$ROOTFS/dev" --rbind
  bind tmpfs "$ROOTFS/tmp" -t tmpfs

  # what Debian's packages lack, asked of the plugin's own dependency check inside the chroot
  missing=$(in_root "$ROOTFS" "cd /opt/cityplanner && python3 -c 'from plugin.deps.features import unmet_requirements as u; print(\" \".join(r.spec for r in u(\"core\")))'")
  echo "test-ltr: Debian $SUITE lacks: ${missing:-nothing}; test-only: $TEST_ONLY"
  PIP=(python3 -m pip)
  [ -x .venv/bin/python ] && PIP=(.venv/bin/python -m pip)
  mkdir -p "$WHEELS"
  # shellcheck disable=SC2086
  pyver=$(in_root "$ROOTFS" "python3 -c 'import sys; print(\"%d.%d\" % sys.version_info[:2])'")
  "${PIP[@]}" download -q --dest "$WHEELS" --only-binary :all: --python-version "$pyver" --implementation cp \
    --abi "cp${pyver/./}" --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 $missing $TEST_ONLY 2>&1 \
    | { grep -v "^WARNING: Location" || true; }
  bind "$WHEELS" "$ROOTFS/opt/wheelhouse" --bind
  t_wheels=$((SECONDS - t0 - t_rootfs))

  set +e
  in_root "$ROOTFS" "set -e; cd /opt/cityplanner
    python3 -c 'from qgis.core import Qgis; import sys, numpy, shapely, geopandas; print(\"test-ltr: QGIS\", Qgis.QGIS_VERSION, \"Python\", sys.version.split()[0], \"numpy\", numpy.__version__, \"shapely\", shapely.__version__, \"geopandas\", geopandas.__version__)' 2>/dev/null
    python3 -m plugin deps --install --prefix /opt/cp-deps --find-links /opt/wheelhouse >/tmp/deps.json
    python3 -m pip install -q --prefix /opt/cp-deps --no-index --find-links /opt/wheelhouse $TEST_ONLY 2>&1 | grep -v WARNING || true
    site=\$(python3 -c 'from plugin.deps.paths import site_dirs; print(\":\".join(map(str, site_dirs(\"/opt/cp-deps\"))))')
    PYTHONPATH=\$site QT_QPA_PLATFORM=offscreen CITYPLANNER_WHEELHOUSE=/opt/wheelhouse \
      timeout $BUDGET python3 -m pytest -q -p no:cacheprovider ${TESTS[*]}"
  rc=$?
  set -e
  rm -rf "$REPO/build/test-artifacts/ltr" && mkdir -p "$REPO/build/test-artifacts/ltr"
  cp -r "$ROOTFS/opt/cityplanner/build/test-artifacts/." "$REPO/build/test-artifacts/ltr/" 2>/dev/null || true
  echo "test-ltr: exit $rc; root fs ${t_rootfs}s, wheels ${t_wheels}s, tests $((SECONDS - t0 - t_rootfs - t_wheels))s, total $((SECONDS - t0))s"
  exit $rc
}

main "$@"  # parsed whole before it runs: editing this file mid-run cannot derail it
