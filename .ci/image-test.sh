#!/usr/bin/env bash
# `make image-test`: build the container image (Dockerfile) and try it for real on this machine.
# These machines reach Debian's packages and the Python and npm registries but no image registry
# and have no Docker daemon, so: debootstrap a minimal Debian with python3 as the base image
# (kept between runs as localhost/masa-base:bookworm), `podman build` with chroot isolation and
# the machine's CA bundle mounted over the image's own (the registries are reached through it),
# then start the image's file system with `podman mount` + chroot as its non-root user (the OCI
# runtime refuses this sandbox's resource limits). Checked: the console answers `ayse: /help`,
# GET /healthz is 200, GET /metrics serves Prometheus text, the bot runs as the image's user, and
# SIGTERM ends it with exit code 0 within 10 s. Prints the image's size and the start-to-healthy time.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE_IMAGE=localhost/masa-base:bookworm-1  # -N: bump when the recipe below changes
IMAGE=localhost/masa-bot:test
CA=/etc/ssl/certs/ca-certificates.crt
PORT=${IMAGE_TEST_PORT:-18080}
say() { echo "image-test: $*"; }
fail() { echo "image-test: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (podman build with chroot isolation, chroot)"
if ! command -v podman >/dev/null || ! command -v debootstrap >/dev/null; then
    say "installing podman and debootstrap from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman debootstrap >/dev/null
fi

started=$(date +%s)
if ! podman image exists "$BASE_IMAGE"; then
    say "building the base image with debootstrap (once; kept between runs)"
    root=$(mktemp -d /var/tmp/masa-base.XXXXXX)
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
        bookworm "$root" http://deb.debian.org/debian >/dev/null
    # what a runtime never reads: package caches and lists, documentation, translations
    rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
        "$root"/usr/share/man/* "$root"/usr/share/locale/* "$root"/usr/share/info/*
    tar -C "$root" -c . | podman import -q - "$BASE_IMAGE" >/dev/null
    rm -rf "$root"
fi

say "building $IMAGE"
podman build -q --isolation chroot --format docker --layers \
    --build-arg BASE="$BASE_IMAGE" -v "$CA:$CA:ro" -t "$IMAGE" . >/dev/null
built=$(date +%s)
size=$(podman image inspect "$IMAGE" --format '{{.Size}}')
say "built in $((built - started)) s; image size $((size / 1000000)) MB"

ctr=$(podman create -q --no-healthcheck "$IMAGE")
mnt=$(podman mount "$ctr")
work=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    exec 3>&- 2>/dev/null || true
    umount "$mnt/proc" "$mnt/dev" 2>/dev/null || true
    podman umount "$ctr" >/dev/null 2>&1 || true
    podman rm -f "$ctr" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
for bad in gcc cc tests testkit chromium; do
    if [ -e "$mnt/usr/bin/$bad" ] || [ -e "$mnt/opt/masa/lib/python3.11/site-packages/$bad" ]; then
        fail "the runtime image holds $bad"
    fi
done
[ -s "$mnt"/opt/masa/lib/python3*/site-packages/bot/adapters/web/static/vendor/discord-sdk.js ] \
    || fail "the Activity's SDK was not bundled"
user=$(podman image inspect "$IMAGE" --format '{{.Config.User}}')
[ "$user" = masa ] || fail "the image runs as '$user', not masa"
uid=$(awk -F: '$1 == "masa" {print $3}' "$mnt/etc/passwd")
[ -n "$uid" ] && [ "$uid" != 0 ] || fail "no unprivileged masa user in the image"
podman image inspect "$IMAGE" --format '{{json .Config.Healthcheck}}' | grep -q healthz \
    || fail "no HEALTHCHECK on /healthz"

mount --bind /proc "$mnt/proc"
mount --bind /dev "$mnt/dev"
mkfifo "$work/in"
start=$(date +%s%N)
# the image's environment (ENV lines) and user, started by chroot from its mounted file system
mapfile -t envs < <(podman image inspect "$IMAGE" --format '{{range .Config.Env}}{{println .}}{{end}}' | sed '/^$/d')
chroot --userspec="$uid:$uid" "$mnt" /usr/bin/env -i "${envs[@]}" HOME=/app WEB_PORT="$PORT" \
    sh -c 'cd /app && exec python -m bot --console' <"$work/in" >"$work/out" 2>&1 &
pid=$!
exec 3>"$work/in"
echo "ayse: /help" >&3

healthy=""
for _ in $(seq 1 300); do
    if python3 - "$PORT" <<'PY' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=2)
PY
    then healthy=$(date +%s%N); break; fi
    kill -0 "$pid" 2>/dev/null || { cat "$work/out" >&2; fail "the bot exited at start"; }
    sleep 0.1
done
[ -n "$healthy" ] || { cat "$work/out" >&2; fail "GET /healthz never answered 200"; }
say "start to /healthz 200: $(( (healthy - start) / 1000000 )) ms"
python3 - "$PORT" <<'PY' || fail "GET /metrics"
import sys, urllib.request
body = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=2).read().decode()
assert "# TYPE" in body, body[:200]
PY
for _ in $(seq 1 100); do grep -q "/poker" "$work/out" && break; sleep 0.1; done
grep -q "/poker" "$work/out" || { cat "$work/out" >&2; fail "no answer to ayse: /help"; }
bot_pid=$(pgrep -P "$pid" -f "python -m bot" || echo "$pid")
running_uid=$(awk '/^Uid:/ {print $2}' "/proc/$bot_pid/status")
[ "$running_uid" = "$uid" ] || fail "the bot runs as uid $running_uid, not $uid"

stop=$(date +%s%N)
kill -TERM "$bot_pid"
code=0
wait "$pid" || code=$?
took=$(( ($(date +%s%N) - stop) / 1000000 ))
pid=""
[ "$code" = 0 ] || { cat "$work/out" >&2; fail "SIGTERM ended the bot with code $code"; }
[ "$took" -lt 10000 ] || fail "SIGTERM took $took ms (over 10 s)"
if grep -q "Traceback" "$work/out"; then cat "$work/out" >&2; fail "a traceback in the output"; fi
say "SIGTERM: exit 0 in $took ms; whole image test $(( $(date +%s) - started )) s"
say "passed"
