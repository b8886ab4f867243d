#!/bin/sh
# test.sh: set up, build and run every suite, as CI does (.ci/run calls this).
#   unit    fixtures, no root, no display
#   kernel  live /proc (skips without root)
#   ui      the app under a virtual X server
# then a second build with AddressSanitizer and UndefinedBehaviorSanitizer for unit and kernel.
# Ends with one line: "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

build-aux/deps.sh || { echo "0 passed, 1 failed"; exit 1; }

status=0
logs=""

run_build () {
  dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" || return 1
  fi
  meson compile -C "$dir" || return 1
}

if run_build build-test; then
  xvfb-run -a -s "-screen 0 1920x1080x24" dbus-run-session -- \
    meson test -C build-test --suite unit --suite kernel --suite ui --print-errorlogs \
    || status=1
  logs="$logs build-test/meson-logs/testlog.json"
else
  echo "test.sh: the build failed"
  status=1
fi

# Sanitizers: the library, the CLI and their tests (GTK is left out: its own leaks and
# uninstrumented libraries make the reports noise). Slow unwinding on malloc, so that
# leaks inside GLib's one-time allocations carry the frames lsan.supp names.
if run_build build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dapp=disabled; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0 \
  LSAN_OPTIONS=suppressions="$PWD/build-aux/lsan.supp":print_suppressions=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --suite unit --suite kernel --print-errorlogs \
    || status=1
  logs="$logs build-asan/meson-logs/testlog.json"
else
  echo "test.sh: the sanitizer build failed"
  status=1
fi

python3 - $logs <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        failed += 1
        continue
    for line in lines:
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
print(f"({skipped} skipped)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
py=$?
[ $py -ne 0 ] && status=1
exit $status
